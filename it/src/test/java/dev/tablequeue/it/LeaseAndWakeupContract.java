package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.DeclarationException;
import dev.tablequeue.LeaseLostException;
import dev.tablequeue.OutcomeUnknownException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.SettlementException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.CommitWakeups;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.Jobs;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How long leases hold, how soon a row that returns to the queue is claimed again, what a failed settlement
 * tells the listener, and what the broker checks of its pool, on each database. Each database runs this
 * suite through a small subclass that names its {@link TestDatabase}; the tests are final.
 */
public abstract class LeaseAndWakeupContract extends BrokerFixture {

    // ================================================================ leases

    @Test
    public final void two_brokers_keep_one_second_leases_over_three_second_handlers_and_deliver_each_row_once() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        List<QueueBroker> two = List.of(
                broker(settlementFailuresInto(failures), settings -> settings.lease(Duration.ofSeconds(1))),
                broker(settlementFailuresInto(failures), settings -> settings.lease(Duration.ofSeconds(1))));
        for (QueueBroker broker : two) {
            broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(4).handle((job, d) -> {
                seen.merge(job.n(), 1, Integer::sum);
                // the work takes three leases' time; nothing waits on it
                Thread.sleep(3_000);
                return Outcome.ack();
            });
        }
        // six rows for eight workers: the two idle workers claim every poll, and would take a row whose lease
        // the keeper let lapse
        insertMany(t, "bulk", 6);
        two.forEach(QueueBroker::start);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 6);
        assertThat(seen).hasSize(6);
        assertThat(seen.values()).containsOnly(1);
        assertThat(failures).isEmpty();
    }

    @Test
    public final void an_acknowledgement_whose_connection_is_killed_is_written_again_on_another_while_its_lease_holds()
            throws Exception {
        Settled settled = new Settled();
        Killed killed = killTheAcknowledgementsConnection(settled, false);
        await().atMost(SOON).until(() -> settled.written.contains(killed.id()));
        assertThat(count(killed.table(), "processed_at is not null")).isEqualTo(1);
        assertThat(settled.failed).isEmpty();
        assertThat(settled.unknown).isEmpty();
        assertThat(settled.deliveries).hasValue(1);
    }

    @Test
    public final void a_lease_outcome_whose_commit_a_killed_connection_left_unknown_is_reported_unknown_not_failed()
            throws Exception {
        Settled settled = new Settled();
        // the lease runs out before the kill, so the acknowledgement is not written again
        Killed killed = killTheAcknowledgementsConnection(settled, true);
        long id = killed.id();
        await().atMost(SOON).until(() -> settled.unknown.containsKey(id));
        assertThat(settled.unknown.get(id)).isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("row " + id)
                .hasMessageContaining("\"" + killed.table().getName() + "\"")
                .hasMessageContaining("acknowledgement");
        assertThat(((OutcomeUnknownException) settled.unknown.get(id)).rowId()).isEqualTo(id);
        // the row was not lost: its lease ran out, and it is delivered again and acknowledged
        await().atMost(SOON).until(() -> settled.written.contains(id));
        assertThat(settled.failed).isEmpty();
        assertThat(settled.deliveries).hasValue(2);
    }

    @Test
    public final void a_row_lock_claim_whose_connection_is_killed_during_its_commit_reports_its_outcome_unknown()
            throws Exception {
        assumeTrue(engine() == Engine.POSTGRES,
                "only PostgreSQL runs a trigger at the commit, where the test can hold the commit back");
        ServerSessions sessions = new ServerSessions(engine(), pool);
        Jobs t = newTable();
        String gate = t.getName() + "_gate";
        // a deferred trigger makes the commit wait on a row of the gate table, which the test holds
        db.execute("CREATE TABLE " + gate + " (id INT PRIMARY KEY)", "INSERT INTO " + gate + " VALUES (1)",
                "CREATE FUNCTION " + gate + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM 1 FROM " + gate
                        + " FOR UPDATE; RETURN NULL; END $$",
                "CREATE CONSTRAINT TRIGGER " + gate + " AFTER UPDATE ON " + t.getName()
                        + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION " + gate + "()");
        long id = insertJobs(t, 1).get(0);
        Settled settled = new Settled();
        QueueBroker broker = broker(settled);
        broker.subscribe(InboxQueue.of(binding(t, Form.ROW_LOCK), "emails")).payload(Job.class).handle((job, d) -> {
            settled.deliveries.incrementAndGet();
            return Outcome.ack();
        });
        try (Connection locker = pool.getConnection()) {
            locker.setAutoCommit(false);
            DSL.using(locker, database().sqlDialect()).fetch("select id from " + gate + " for update");
            broker.start();
            long session = await().atMost(PATIENCE).until(() -> sessions.waitingOnALock("COMMIT"),
                    waiting -> waiting.size() == 1).get(0);
            sessions.kill(session);
            locker.rollback();
        }
        await().atMost(SOON).until(() -> settled.unknown.containsKey(id));
        assertThat(settled.unknown.get(id)).isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("row " + id).hasMessageContaining(t.getName());
        // the server rolled the cut-off commit back: the row is delivered again and acknowledged
        await().atMost(SOON).until(() -> settled.written.contains(id));
        assertThat(settled.failed).isEmpty();
        assertThat(settled.deliveries).hasValue(2);
    }

    @Test
    public final void a_lease_extension_whose_connection_fails_is_written_again_at_once_on_another()
            throws Exception {
        ExtensionCutOff cut = cutOffAnExtension(FailingConnections.When.BEFORE);
        // the keeper's next run is five seconds away: the extension is written again long before it
        await().atMost(Duration.ofSeconds(3)).until(() -> cut.connections().runAfter.get() >= 1);
        cut.letGo().countDown();
        await().atMost(PATIENCE).until(() -> count(cut.table(), "processed_at is not null") == 1);
        assertThat(cut.settled().failed).isEmpty();
        assertThat(cut.settled().leasesLost).isEmpty();
        assertThat(cut.settled().deliveries).hasValue(1);
    }

    @Test
    public final void a_lease_extension_whose_answer_was_lost_keeps_the_lease_it_wrote() throws Exception {
        // the row holds the token the extension wrote, which the delivery never heard of
        ExtensionCutOff cut = cutOffAnExtension(FailingConnections.When.AFTER);
        cut.letGo().countDown();
        await().atMost(PATIENCE).until(() -> count(cut.table(), "processed_at is not null") == 1);
        assertThat(cut.settled().failed).isEmpty();
        assertThat(cut.settled().leasesLost).isEmpty();
        assertThat(cut.settled().deliveries).hasValue(1);
    }

    /** The row whose lease extension was cut off, the connections that cut it, the listener, the handler's gate. */
    private record ExtensionCutOff(Jobs table, FailingConnections connections, Settled settled,
            CountDownLatch letGo) {}

    /**
     * Delivers one lease row (a ten second lease, so the keeper runs every five) whose handler waits, and
     * cuts the connection of the keeper's first extension off {@code when}.
     */
    private ExtensionCutOff cutOffAnExtension(FailingConnections.When when) throws Exception {
        Jobs t = newTable();
        insertJobs(t, 1);
        FailingConnections connections = new FailingConnections(pool, FailingConnections::leaseExtension);
        Settled settled = new Settled();
        QueueBroker broker = QueueBroker.builder(connections).poolSize(12).clock(clock).pollInterval(POLL)
                .lease(Duration.ofSeconds(10)).drainTimeout(Duration.ofSeconds(10)).listener(settled).build();
        brokers.add(broker);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(binding(t, Form.LEASE), "emails")).payload(Job.class).handle((job, d) -> {
            settled.deliveries.incrementAndGet();
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        // a second on, the extension writes a token of its own rather than the claim's again
        clock.advance(Duration.ofSeconds(1));
        connections.arm(when);
        assertThat(connections.failed.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        return new ExtensionCutOff(t, connections, settled, letGo);
    }

    /** What a broker's listener heard of settlements, and how many deliveries the handler saw. */
    private static final class Settled implements BrokerListener {
        final List<Object> written = new CopyOnWriteArrayList<>();
        final Map<Object, Throwable> failed = new ConcurrentHashMap<>();
        final Map<Object, Throwable> unknown = new ConcurrentHashMap<>();
        final List<Object> leasesLost = new CopyOnWriteArrayList<>();
        final AtomicInteger deliveries = new AtomicInteger();

        @Override
        public void settled(Delivery delivery, Outcome outcome) {
            written.add(delivery.id());
        }

        @Override
        public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
            failed.put(delivery.id(), failure);
        }

        @Override
        public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
            unknown.put(delivery.id(), failure);
        }

        @Override
        public void leaseLost(Delivery delivery) {
            leasesLost.add(delivery.id());
        }
    }

    /** The row whose acknowledgement's connection was killed, and its table. */
    private record Killed(Jobs table, long id) {}

    /**
     * Delivers one lease row whose acknowledgement then waits on a row lock the test holds; kills the
     * session of that acknowledgement on the server (after moving the clock past the lease, with
     * {@code leaseRunsOut}), then lets the row go.
     */
    private Killed killTheAcknowledgementsConnection(Settled settled, boolean leaseRunsOut) throws Exception {
        assumeTrue(engine() != Engine.SQLITE, "an embedded database has no sessions to kill");
        ServerSessions sessions = new ServerSessions(engine(), pool);
        Jobs t = newTable();
        long id = insertJobs(t, 1).get(0);
        QueueBroker broker = broker(settled);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(binding(t, Form.LEASE), "emails")).payload(Job.class).handle((job, d) -> {
            settled.deliveries.incrementAndGet();
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        try (Connection locker = pool.getConnection()) {
            locker.setAutoCommit(false);
            DSL.using(locker, database().sqlDialect()).selectFrom(t).where(t.ID.eq(id)).forUpdate().fetch();
            letGo.countDown();
            String acknowledgement = "%" + t.getName() + "%processed_at%";
            long session = await().atMost(PATIENCE).until(() -> sessions.waitingOnALock(acknowledgement),
                    waiting -> waiting.size() == 1).get(0);
            if (leaseRunsOut) {
                clock.advance(Duration.ofMinutes(5));
            }
            sessions.kill(session);
            locker.rollback();
        }
        return new Killed(t, id);
    }

    @Test
    public final void a_late_settlement_after_the_lease_ran_out_fails_and_changes_nothing() throws Exception {
        assumeTrue(forms().contains(Form.LEASE), database() + " takes no lease form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        QueueBroker first = broker(new BrokerListener() {
            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failures.add(failure);
            }
        });
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

        // the lease runs out (the host clock moves past it), and another broker claims the row
        clock.advance(Duration.ofMinutes(5));
        List<Integer> secondAttempts = new CopyOnWriteArrayList<>();
        QueueBroker second = broker();
        second.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            secondAttempts.add(d.attempt().orElseThrow());
            return Outcome.retryAfter(Duration.ofHours(1));
        });
        second.start();
        await().atMost(PATIENCE).until(() -> secondAttempts.size() == 1);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> failures.size() == 1);
        assertThat(failures.get(0)).isInstanceOf(LeaseLostException.class).hasMessageContaining(t.getName());
        assertThat(secondAttempts).containsExactly(2);
        assertThat(count(t, "processed_at is null")).isEqualTo(1);
    }

    @Test
    public final void the_keeper_extends_the_lease_while_the_handler_runs() throws Exception {
        assumeTrue(forms().contains(Form.LEASE), database() + " takes no lease form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        QueueBroker broker = QueueBroker.builder(pool).pollInterval(POLL).lease(Duration.ofSeconds(1)).build();
        brokers.add(broker);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        Instant first = lockedUntil(t);
        await().atMost(PATIENCE).until(() -> lockedUntil(t).isAfter(first.plusSeconds(1)));
        letGo.countDown();
        awaitCount(t, "processed_at is not null", 1);
    }

    // ================================================================ wake-ups

    /** A poll interval no test waits for: a row claimed within {@link #SOON} was woken, not polled. */
    private static final Duration LONG_POLL = Duration.ofSeconds(60);
    private static final Duration SOON = Duration.ofSeconds(10);

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_row_returned_by_a_retry_or_a_due_retry_after_is_claimed_again_without_waiting_for_the_poll(
            Form form) {
        assumeTrue(forms().contains(form), () -> database() + " does not take the " + form + " form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = longPollBroker(new BrokerListener() {});
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return switch (attempts.size()) {
                case 1 -> Outcome.retry();
                case 2 -> Outcome.retryAfter(Duration.ZERO);
                case 3 -> Outcome.retryAfter(Duration.ofMillis(300));
                default -> Outcome.ack();
            };
        });
        broker.start();
        publish(broker, b, "emails", 1);
        await().atMost(SOON).untilAsserted(() -> assertThat(attempts).containsExactly(1, 2, 3, 4));
        await().atMost(SOON).until(() -> count(t, "processed_at is not null") == 1);
    }

    @Test
    public final void the_rows_of_a_row_lock_claim_rolled_back_by_a_failed_settlement_are_claimed_again_at_once() {
        assumeTrue(forms().contains(Form.ROW_LOCK), () -> database() + " takes no row locks");
        Jobs t = newTable();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .own(Event.ACK, (ctx, id) -> {
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) id)).execute();
                    if (failOnce.getAndSet(false)) {
                        ctx.execute("update no_such_table set x = 1");
                    }
                })
                .build();
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = longPollBroker(settlementFailuresInto(failures));
        List<Object> delivered = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(2).handle((job, d) -> {
            delivered.add(d.id());
            return Outcome.ack();
        });
        broker.start();
        broker.publisher().publishAll(b, List.of(Message.of("emails", new Job(1, "mail")),
                Message.of("emails", new Job(2, "mail"))));
        await().atMost(SOON).until(() -> count(t, "grp = 'sent'") == 2);
        assertThat(failures).hasSize(2);
        assertThat(delivered).hasSize(4);
    }

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_publish_in_a_jooq_transaction_with_commit_wakeups_wakes_its_subscription_at_the_commit(
            Form form) {
        DSLContext ctx = DSL.using(new DefaultConfiguration().set(pool).set(database().sqlDialect())
                .setAppending(new CommitWakeups()));
        aPublishInTheCallersTransactionIsClaimedSoonAfterItsCommit(form, ctx);
    }

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_publish_in_a_transaction_the_broker_cannot_watch_is_claimed_soon_after_the_commit(Form form) {
        aPublishInTheCallersTransactionIsClaimedSoonAfterItsCommit(form, dsl());
    }

    private void aPublishInTheCallersTransactionIsClaimedSoonAfterItsCommit(Form form, DSLContext ctx) {
        assumeTrue(forms().contains(form), () -> database() + " does not take the " + form + " form");
        // a lease claim on SQLite is a write, which waits for the publishing transaction's commit
        assumeTrue(engine() != Engine.SQLITE || form != Form.LEASE, "SQLite's lease claim waits");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = longPollBroker(new BrokerListener() {});
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        broker.start();
        Thread claims = claimThread(t);
        ctx.transaction(tx -> {
            broker.publisher().publish(tx.dsl(), b, Message.of("emails", new Job(1, "in a transaction")));
            // the caller's transaction goes on: a claim woken by the publish has found nothing and waits again
            await().atMost(PATIENCE).during(Duration.ofMillis(500))
                    .until(() -> claims.getState() == Thread.State.TIMED_WAITING);
        });
        await().atMost(SOON).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(handled).containsExactly(1);
    }

    private static Thread claimThread(Jobs t) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(th -> th.getName().startsWith("tablequeue-" + t.getName() + "-")
                        && th.getName().contains("-claim"))
                .findFirst().orElseThrow();
    }

    // ================================================================ settlement failures

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_settlement_statement_that_fails_reaches_the_listener_naming_the_outcome_row_table_and_sql(
            Form form) throws Exception {
        assumeTrue(forms().contains(form), () -> database() + " does not take the " + form + " form");
        Jobs t = newTable();
        Jobs dead = newTable();
        long id = insertJobs(t, 1).get(0);
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = broker(settlementFailuresInto(failures));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicInteger deliveries = new AtomicInteger();
        broker.subscribe(InboxQueue.of(binding(t, form), "emails")).payload(Job.class).maxAttempts(1)
                .deadLetterTable(dead).handle((job, d) -> {
                    if (deliveries.incrementAndGet() > 1) {
                        return Outcome.ack();
                    }
                    holding.countDown();
                    letGo.await(PATIENCE.toSeconds(), SECONDS);
                    return Outcome.retry();
                });
        broker.start();
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        // the dead letter table goes away under the running subscription: the move into it fails
        db.execute("DROP TABLE " + dead.getName());
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> failures.containsKey(id));
        Throwable failure = failures.get(id);
        assertThat(failure).isInstanceOf(SettlementException.class)
                .hasMessageContaining("retry")
                .hasMessageContaining("row " + id)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("dead letter copy")
                .hasCauseInstanceOf(SQLException.class);
        SettlementException settlement = (SettlementException) failure;
        assertThat(settlement.table()).isEqualTo(t.getName());
        assertThat(settlement.rowId()).isEqualTo(id);
        assertThat(settlement.sql()).containsIgnoringCase(dead.getName());
        assertThat(failure.getMessage()).contains(settlement.sql());
    }

    // ================================================================ start

    @Test
    public final void a_data_column_the_table_lacks_stops_the_start_naming_the_table_the_column_and_the_insert() {
        Jobs t = newTable();
        db.execute("ALTER TABLE " + t.getName() + " DROP COLUMN note");
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD).lease(t.LOCKED_UNTIL).data(t.NOTE).build();
        QueueBroker subscribed = broker();
        subscribed.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        assertThatThrownBy(subscribed::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("note")
                .hasMessageContaining("insert");

        // a route into the table, with no subscription on it, is checked too
        QueueBroker routed = QueueBroker.builder(pool).route("emails", b).build();
        brokers.add(routed);
        assertThatThrownBy(routed::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("note")
                .hasMessageContaining("insert")
                .hasMessageContaining("route \"emails\"");
    }

    // ================================================================ the connection budget

    @Test
    public final void listen_notify_on_a_pool_that_would_leave_the_claims_no_connection_is_refused_at_build() {
        assumeTrue(engine() == Engine.POSTGRES, "notifications are PostgreSQL's");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ROW_LOCK);
        try (HikariDataSource two = db.pool(2)) {
            // the listener keeps one of the two, and one always stays free for handlers and publishes
            assertThatThrownBy(() -> QueueBroker.builder(two).listenNotify().build())
                    .isInstanceOf(DeclarationException.class)
                    .hasMessageContaining("listenNotify()")
                    .hasMessageContaining("pool of 2");
            assertThatThrownBy(() -> QueueBroker.builder(pool).poolSize(2).listenNotify().build())
                    .isInstanceOf(DeclarationException.class)
                    .hasMessageContaining("listenNotify()");
        }
        try (HikariDataSource three = db.pool(3)) {
            QueueBroker broker = QueueBroker.builder(three).clock(clock).pollInterval(LONG_POLL).listenNotify()
                    .build();
            brokers.add(broker);
            List<Integer> handled = new CopyOnWriteArrayList<>();
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
                handled.add(job.n());
                return Outcome.ack();
            });
            broker.start();
            publish(broker, b, "emails", 2);
            await().atMost(SOON).until(() -> count(t, "processed_at is not null") == 2);
            assertThat(handled).containsExactlyInAnyOrder(0, 1);
            broker.close();
        }
    }

    @Test
    public final void a_data_source_that_does_not_report_its_pool_size_is_refused_until_the_size_is_declared() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ADVISORY);
        try (HikariDataSource three = db.pool(3)) {
            three.setConnectionTimeout(5_000);
            DataSource unsized = new UnsizedDataSource(three);
            assertThatThrownBy(() -> QueueBroker.builder(unsized).build())
                    .isInstanceOf(DeclarationException.class)
                    .hasMessageContaining(UnsizedDataSource.class.getName())
                    .hasMessageContaining("poolSize(n)");

            // declared, the budget holds as on a pool that reports its size: each advisory delivery holds a
            // connection and the third stays free, so every handler's own query is served at once (else it
            // would time out, and its row be delivered again)
            QueueBroker broker = QueueBroker.builder(unsized).poolSize(3).clock(clock).pollInterval(POLL).build();
            brokers.add(broker);
            AtomicInteger deliveries = new AtomicInteger();
            List<Integer> queried = new CopyOnWriteArrayList<>();
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(8).handle((job, d) -> {
                deliveries.incrementAndGet();
                queried.add(d.db().selectOne().fetchOne(0, Integer.class));
                return Outcome.ack();
            });
            broker.start();
            publish(broker, b, "emails", 12);
            await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 12);
            assertThat(deliveries).hasValue(12);
            assertThat(queried).hasSize(12).containsOnly(1);
            broker.close();
        }
    }

    /** A data source that is no HikariCP pool and does not say how many connections it gives. */
    private static final class UnsizedDataSource extends ForwardingDataSource {
        UnsizedDataSource(DataSource target) {
            super(target);
        }
    }

    private QueueBroker longPollBroker(BrokerListener listener) {
        return broker(listener, settings -> settings.pollInterval(LONG_POLL));
    }
}
