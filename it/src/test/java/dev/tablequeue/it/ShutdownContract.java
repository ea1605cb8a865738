package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.BrokerClosedException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ShutdownReport;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@code close()} leaves behind, proven on the server: no lock, no open transaction, no connection
 * of the broker's; and what a handler's {@link Error} does to its row and its subscription. Each database
 * runs it through a small subclass; the tests are final.
 */
public abstract class ShutdownContract extends BrokerFixture {
    private static final Duration SHORT_DRAIN = Duration.ofMillis(200);

    private QueueBroker closingSoon(javax.sql.DataSource pool, BrokerListener listener) {
        QueueBroker broker = QueueBroker.builder(pool).clock(clock).pollInterval(POLL).listener(listener)
                .drainTimeout(SHORT_DRAIN).build();
        brokers.add(broker);
        return broker;
    }

    private static BrokerListener failuresInto(List<Throwable> failures) {
        return new BrokerListener() {
            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failures.add(failure);
            }
        };
    }

    /**
     * Starts {@code broker} with {@code workers} handlers that each hold their delivery until {@code letGo},
     * and closes it once every one of them holds one.
     */
    private static ShutdownReport closeWhileHandlersHold(QueueBroker broker, RoleBinding<Record> b, int workers,
            CountDownLatch letGo) throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(workers);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(workers).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        return broker.close();
    }

    /** Handles every row of {@code t} left in the queue on a new broker; the attempt of each delivery by id. */
    private Map<Object, Integer> handleTheRest(Jobs t, RoleBinding<Record> b, int expected) {
        Map<Object, Integer> attempts = new ConcurrentHashMap<>();
        QueueBroker next = broker();
        next.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            attempts.put(d.id(), d.attempt().orElseThrow());
            return Outcome.ack();
        });
        next.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == expected);
        return attempts;
    }

    @Test
    public final void closing_rolls_back_row_lock_claims_in_work_and_reports_each_rows_lock_released()
            throws Exception {
        assumeTrue(forms().contains(Form.ROW_LOCK), "this database takes no row locks");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ROW_LOCK);
        insertJobs(t, 3);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch letGo = new CountDownLatch(1);
        ShutdownReport report = closeWhileHandlersHold(closingSoon(pool, failuresInto(failures)), b, 3, letGo);
        // one claim took the three rows; its rollback released the lock of each
        assertThat(report).isEqualTo(new ShutdownReport(3, 0, 3));
        assertThat(new ServerProbe(db).openTransactions()).isZero();
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> failures.size() == 3);
        assertThat(failures).allMatch(f -> f instanceof BrokerClosedException);
        assertThat(handleTheRest(t, b, 3).values()).containsOnly(1);
    }

    @Test
    public final void closing_while_advisory_handlers_hang_leaves_no_lock_and_no_connection_held() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ADVISORY);
        List<Long> ids = insertJobs(t, 2);
        ServerProbe probe = new ServerProbe(db);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch letGo = new CountDownLatch(1);
        try (HikariDataSource own = db.pool(6)) {
            ShutdownReport report = closeWhileHandlersHold(closingSoon(own, failuresInto(failures)), b, 2, letGo);
            assertThat(report).isEqualTo(new ShutdownReport(2, 0, 2));
            // the handlers still run, and hold nothing: the keys are free and the connections back in the pool
            for (long id : ids) {
                assertThat(probe.keyHeld(t.getName() + "-" + id)).isFalse();
            }
            assertThat(own.getHikariPoolMXBean().getActiveConnections()).isZero();
            letGo.countDown();
            await().atMost(PATIENCE).until(() -> failures.size() == 2);
            assertThat(failures).allMatch(f -> f instanceof BrokerClosedException);
            // each connection went back once
            assertThat(own.getHikariPoolMXBean().getActiveConnections()).isZero();
        }
        assertThat(handleTheRest(t, b, 2)).containsOnlyKeys(ids).allSatisfy((id, a) -> assertThat(a).isEqualTo(2));
    }

    @Test
    public final void a_release_that_is_not_confirmed_at_close_closes_its_connection_at_once() throws Exception {
        Jobs t = newTable();
        insertJobs(t, 1);
        boolean sessions = engine() != Engine.SQLITE;
        Set<String> held = ConcurrentHashMap.newKeySet();
        AtomicReference<Long> session = new AtomicReference<>();
        // the service's own lock keeps its keys in the process; its release at shutdown answers false
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory(t.getName() + "-{id}")
                .ownLock((ctx, k) -> {
                    if (sessions) {
                        session.set(ServerProbe.sessionOf(ctx));
                    }
                    return held.add(k);
                })
                .ownUnlock((ctx, k) -> false)
                .build();
        CountDownLatch letGo = new CountDownLatch(1);
        try (HikariDataSource own = db.pool(4)) {
            ShutdownReport report = closeWhileHandlersHold(closingSoon(own, new BrokerListener() {}), b, 1, letGo);
            assertThat(report).isEqualTo(new ShutdownReport(0, 1, 1));
            assertThat(own.getHikariPoolMXBean().getActiveConnections()).isZero();
            if (sessions) {
                // the server ends the session (and any lock in it) once the connection is closed
                ServerProbe probe = new ServerProbe(db);
                await().atMost(Duration.ofSeconds(5)).until(() -> !probe.sessionAlive(session.get()));
            }
            letGo.countDown();
        }
    }

    @Test
    public final void a_claim_that_returns_after_the_drain_timeout_is_released_and_never_handled() throws Exception {
        assumeTrue(forms().contains(Form.ROW_LOCK), "this database takes no row locks");
        Jobs t = newTable();
        insertJobs(t, 1);
        String slow = engine() == Engine.POSTGRES ? "select pg_sleep(1.5)" : "select sleep(1.5)";
        CountDownLatch claiming = new CountDownLatch(1);
        CountDownLatch claimed = new CountDownLatch(1);
        // the claim locks the row, then the server is slow to answer: the drain timeout passes meanwhile
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .ownClaim((ctx, group, limit) -> {
                    List<Long> ids = ctx.select(t.ID).from(t).where(t.GRP.eq(group)).and(t.PROCESSED_AT.isNull())
                            .orderBy(t.ID).limit(limit).forUpdate().skipLocked().fetch(t.ID);
                    if (!ids.isEmpty()) {
                        claiming.countDown();
                        ctx.fetch(slow);
                        claimed.countDown();
                    }
                    return ids;
                })
                .build();
        AtomicInteger handled = new AtomicInteger();
        try (HikariDataSource own = db.pool(4)) {
            QueueBroker broker = closingSoon(own, new BrokerListener() {});
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
                handled.incrementAndGet();
                return Outcome.ack();
            });
            broker.start();
            assertThat(claiming.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
            ShutdownReport report = broker.close();
            assertThat(claimed.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
            // the late claim's transaction is rolled back, not handed to a handler
            await().during(POLL.multipliedBy(6)).atMost(PATIENCE).until(() -> handled.get() == 0);
            assertThat(report.deliveriesAbandoned()).isZero();
            assertThat(new ServerProbe(db).openTransactions()).isZero();
            assertThat(own.getHikariPoolMXBean().getActiveConnections()).isZero();
        }
        assertThat(handleTheRest(t, binding(t, Form.ROW_LOCK), 1).values()).containsOnly(1);
    }

    /**
     * With three workers the Error is thrown on a handler's virtual thread, beside its claim-mates; with one, on
     * the subscription's claim thread, which runs that worker's handler and ends with it.
     */
    @ParameterizedTest(name = "{0}, {1} worker(s)")
    @CsvSource({"ROW_LOCK, 3", "LEASE, 3", "ADVISORY, 3", "ROW_LOCK, 1", "LEASE, 1", "ADVISORY, 1"})
    public final void a_handler_that_throws_an_error_settles_nothing_and_stops_its_subscription(Form form,
            int workers) throws Exception {
        assumeTrue(forms().contains(form), "this database does not take the " + form + " form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Long> ids = insertJobs(t, 3);
        long fatal = ids.get(1);
        OutOfMemoryError error = new OutOfMemoryError("simulated: the heap is spent");
        List<Throwable> stopped = new CopyOnWriteArrayList<>();
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
        try {
            QueueBroker broker = broker(new BrokerListener() {
                @Override
                public void subscriptionStopped(InboxQueue<?> queue, Throwable cause) {
                    stopped.add(cause);
                }
            });
            AtomicInteger handled = new AtomicInteger();
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(workers).handle((job, d) -> {
                handled.incrementAndGet();
                if (d.id().equals(fatal)) {
                    throw error;
                }
                return Outcome.ack();
            });
            broker.start();
            // (Awaitility would take the Error from the handler's thread itself and fail the test with it)
            await().dontCatchUncaughtExceptions().atMost(PATIENCE)
                    .until(() -> stopped.size() == 1 && uncaught.size() == 1);
            assertThat(stopped.get(0)).isSameAs(error);
            assertThat(uncaught.get(0)).isSameAs(error);
            // three workers take the three rows at once; one worker takes the first row alone (no handler has
            // returned yet, so it claims no row ahead), then the second, and the third with it where it claims
            // ahead, which runs after the second on the claim thread (before the Error is thrown on) as a
            // claim-mate does beside it
            int reached = workers == 1 ? handled.get() : 3;
            // (the advisory form claims no row ahead)
            assertThat(reached).as("rows handled").isBetween(2, workers == 1 && form == Form.ADVISORY ? 2 : 3);
            // the claim-mates of the row settle; the row itself is written nothing
            await().dontCatchUncaughtExceptions().atMost(PATIENCE)
                    .until(() -> count(t, "processed_at is not null") == reached - 1);
            // the subscription claims no more
            insertJobs(t, 1);
            await().dontCatchUncaughtExceptions().during(POLL.multipliedBy(6)).atMost(PATIENCE)
                    .until(() -> handled.get() == reached);
            assertThat(count(t, "processed_at is null")).isEqualTo(5 - reached);
            ShutdownReport report = broker.close();
            assertThat(report.deliveriesAbandoned()).isZero();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        if (form == Form.LEASE) {
            // the row returns when its lease runs out
            clock.advance(Duration.ofMinutes(5));
        }
        Map<Object, Integer> attempts = handleTheRest(t, b, 4);
        // a row lock returns the row as it was; a lease and a take counted the attempt
        assertThat(attempts.get(fatal)).isEqualTo(form == Form.ROW_LOCK ? 1 : 2);
    }

    // ================================================================ deliveries in work at close, and a crash

    @Test
    public final void close_releases_the_locks_of_deliveries_in_work_and_their_rows_return() throws Exception {
        assumeTrue(forms().contains(Form.ADVISORY), database() + " takes no advisory form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ADVISORY);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        QueueBroker first = closingSoon(pool, failuresInto(failures));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        first.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        first.start();
        publish(first, b, "emails", 1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        ShutdownReport report = first.close();
        assertThat(report.locksReleased()).isEqualTo(1);
        assertThat(report.deliveriesAbandoned()).isEqualTo(1);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> failures.size() == 1);
        assertThat(failures.get(0)).isInstanceOf(BrokerClosedException.class);

        List<Integer> again = new CopyOnWriteArrayList<>();
        QueueBroker second = broker();
        second.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            again.add(d.attempt().orElseThrow());
            return Outcome.ack();
        });
        second.start();
        awaitCount(t, "processed_at is not null", 1);
        assertThat(again).containsExactly(2);
    }

    @Test
    public final void close_waits_for_handlers_in_work_to_settle() throws Exception {
        Queue q = queue(preferredForm());
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        q.emails().handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        q.start().publish(1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        Thread.ofVirtual().start(letGo::countDown);
        ShutdownReport report = q.broker.close();
        assertThat(report.deliveriesAbandoned()).isZero();
        assertThat(q.count("processed_at is not null")).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void the_rows_of_a_process_killed_mid_handler_return_by_the_forms_rule(Form form) throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        publish(broker(), b, "emails", 1);
        DyingService.killWhileHolding(db.url(), t.getName(), form.name(), timeTypeName());
        if (form == Form.LEASE) {
            // its lease (one second, from the dead process's clock) has run out by this broker's clock
            clock.advance(Duration.ofMinutes(1));
        }
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        QueueBroker survivor = broker();
        survivor.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return Outcome.ack();
        });
        survivor.start();
        awaitCount(t, "processed_at is not null", 1);
        // a row lock claim counts nothing, and the rollback returns the row; a lease or a take spent an attempt
        assertThat(attempts).containsExactly(form == Form.ROW_LOCK ? 1 : 2);
    }
}
