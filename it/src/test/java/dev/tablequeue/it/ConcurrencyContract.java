package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deliveries side by side: several brokers and workers on one table, the workers and connections a
 * subscription holds, claims that go on past slow handlers and past a failing claim, and settlements that
 * fail among others.
 *
 * <p>A test of a form runs for each form the database takes; a test that needs a form the database lacks is
 * skipped (an assumption), never passed unrun. Each database runs this suite through a small subclass that
 * names its {@link TestDatabase}; the tests are final.
 */
public abstract class ConcurrencyContract extends BrokerFixture {

    @ParameterizedTest
    @MethodSource("forms")
    public final void two_brokers_with_four_workers_each_deliver_a_thousand_rows_exactly_once(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        List<QueueBroker> two = List.of(broker(), broker());
        for (QueueBroker broker : two) {
            broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(4).handle((job, d) -> {
                seen.merge(job.n(), 1, Integer::sum);
                return Outcome.ack();
            });
        }
        two.get(0).start();
        insertMany(t, "bulk", 1000);
        two.get(1).start();
        await().atMost(Duration.ofMinutes(3)).until(() -> count(t, "processed_at is not null") == 1000);
        assertThat(seen).hasSize(1000);
        assertThat(seen.values()).containsOnly(1);
    }

    /**
     * The advisory settlement releases its key in the statement that writes the outcome, before that
     * statement commits: a claim of the other broker that takes the key meanwhile must not take the row,
     * whose acknowledgement it cannot see yet. With an attempt column the take counts it (an UPDATE); without
     * one it reads it (a locking read). Each row is handled once, and where the attempt is counted, counted
     * once.
     */
    @ParameterizedTest(name = "attempt counted: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    public final void two_brokers_with_eight_workers_each_handle_three_thousand_advisory_rows_exactly_once(
            boolean counted) {
        assumeTrue(forms().contains(Form.ADVISORY), "the database serves the advisory form");
        int rows = 3000;
        Jobs t = newTable();
        RoleBinding<Record> b = counted ? binding(t, Form.ADVISORY) : bindingWithout(t, Form.ADVISORY, "attempt");
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        insertMany(t, "bulk", rows);
        List<HikariDataSource> pools = List.of(db.pool(12), db.pool(12));
        try {
            List<QueueBroker> two = new ArrayList<>();
            for (HikariDataSource p : pools) {
                QueueBroker broker = QueueBroker.builder(p).clock(clock).pollInterval(POLL)
                        .drainTimeout(Duration.ofSeconds(10)).build();
                brokers.add(broker);
                broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(8).handle((job, d) -> {
                    seen.merge(job.n(), 1, Integer::sum);
                    return Outcome.ack();
                });
                two.add(broker);
            }
            two.forEach(QueueBroker::start);
            await().atMost(Duration.ofMinutes(3)).until(() -> count(t, "processed_at is not null") == rows);
            // a row taken twice may still be in its second handler: the drain waits for it
            two.forEach(QueueBroker::close);
            Map<Integer, Integer> twice = new java.util.TreeMap<>();
            seen.forEach((n, times) -> {
                if (times != 1) {
                    twice.put(n, times);
                }
            });
            assertThat(twice).as("rows handled more than once (row -> times)").isEmpty();
            assertThat(seen).hasSize(rows);
            if (counted) {
                assertThat(count(t, "attempt <> 2")).as("rows whose attempt was counted other than once").isZero();
            }
        } finally {
            pools.forEach(HikariDataSource::close);
        }
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void workers_run_deliveries_side_by_side(Form form) {
        // what the claims took and what failed, for the failure message of a run that times out
        List<String> claims = new CopyOnWriteArrayList<>();
        Queue q = queue(form, new BrokerListener() {
            @Override
            public void claimed(InboxQueue<?> queue, int rows, Duration took) {
                if (rows > 0) {
                    claims.add(rows + " row(s) in " + took.toMillis() + " ms");
                }
            }

            @Override
            public void claimFailed(InboxQueue<?> queue, Throwable failure) {
                claims.add("failed: " + failure);
            }
        });
        CountDownLatch together = new CountDownLatch(3);
        q.emails().workers(3).handle((job, d) -> {
            together.countDown();
            // each handler holds its delivery until all three are in work at once
            return together.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
        });
        q.start().publish(3);
        try {
            q.awaitProcessed(3);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("3 rows not processed after " + PATIENCE + ": processed "
                    + q.count("processed_at is not null") + ", handlers that reached the latch " + (3 - together.getCount())
                    + ", claims " + claims, e);
        }
        assertThat(together.getCount()).isZero();
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_subscription_never_has_more_deliveries_in_work_than_workers(Form form) {
        Queue q = queue(form);
        AtomicInteger inWork = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch letGo = new CountDownLatch(1);
        q.emails().workers(3).handle((job, d) -> {
            most.accumulateAndGet(inWork.incrementAndGet(), Math::max);
            try {
                return letGo.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
            } finally {
                inWork.decrementAndGet();
            }
        });
        q.start().publish(12);
        await().atMost(PATIENCE).until(() -> inWork.get() >= 3);
        // claims go on for several poll intervals while every worker is busy, and add no fourth delivery
        await().during(POLL.multipliedBy(6)).atMost(PATIENCE).until(() -> inWork.get() == 3);
        letGo.countDown();
        q.awaitProcessed(12);
        assertThat(most).hasValue(3);
    }

    /**
     * onThreads(2) with four workers: the handlers run on two platform threads of the subscription's own, never
     * more than two at once, and every row is handled.
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void handlers_on_threads_run_on_the_subscriptions_platform_threads(Form form) {
        Queue q = queue(form);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        List<Boolean> virtual = new CopyOnWriteArrayList<>();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch two = new CountDownLatch(2);
        q.emails().workers(4).onThreads(2).handle((job, d) -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                threads.add(Thread.currentThread().getName());
                virtual.add(Thread.currentThread().isVirtual());
                // the first two handlers wait for each other: both threads are in use at once
                two.countDown();
                two.await(PATIENCE.toSeconds(), SECONDS);
                return Outcome.ack();
            } finally {
                running.decrementAndGet();
            }
        });
        q.start().publish(20);
        q.awaitProcessed(20);
        assertThat(virtual).hasSize(20).containsOnly(false);
        assertThat(threads).hasSize(2).allSatisfy(name -> assertThat(name).startsWith("tablequeue-handler-emails-"));
        assertThat(most).hasValue(2);
    }

    @ParameterizedTest
    @MethodSource("rowLockAndAdvisory")
    public final void a_subscription_never_takes_the_pools_last_connection(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        try (HikariDataSource small = db.pool(3)) {
            small.setConnectionTimeout(5_000);
            QueueBroker broker = QueueBroker.builder(small).clock(clock).pollInterval(POLL).build();
            brokers.add(broker);
            AtomicInteger inWork = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            List<Integer> queried = new CopyOnWriteArrayList<>();
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(8).handle((job, d) -> {
                most.accumulateAndGet(inWork.incrementAndGet(), Math::max);
                try {
                    // the handler's own query still finds a connection
                    queried.add(d.db().selectOne().fetchOne(0, Integer.class));
                    return Outcome.ack();
                } finally {
                    inWork.decrementAndGet();
                }
            });
            broker.start();
            publish(broker, b, "emails", 12);
            awaitCount(t, "processed_at is not null", 12);
            if (form == Form.ADVISORY) {
                // each delivery holds a connection of its own: two of the pool's three
                assertThat(most.get()).isBetween(1, 2);
            } else {
                // a row lock claim holds one connection for all the rows it took
                assertThat(most.get()).isBetween(1, 8);
            }
            assertThat(queried).hasSize(12).containsOnly(1);
            broker.close();
        }
    }

    @Test
    public final void slow_handlers_in_several_row_lock_claims_leave_the_free_workers_claiming() {
        assumeTrue(forms().contains(Form.ROW_LOCK), database() + " takes no row lock form");
        Queue q = queue(Form.ROW_LOCK);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicInteger slowInWork = new AtomicInteger();
        AtomicInteger fastHandled = new AtomicInteger();
        q.emails().workers(4).handle((job, d) -> {
            if (job.kind().equals("slow")) {
                slowInWork.incrementAndGet();
                return letGo.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
            }
            fastHandled.incrementAndGet();
            return Outcome.ack();
        });
        // each publishAll commits its rows together, so one claim takes them all: three claims, each with a
        // slow handler, whose fast rows wait for their claim's commit
        q.broker.publisher().publishAll(q.b, jobs("slow", "mail", "mail", "mail"));
        q.start();
        await().atMost(PATIENCE).until(() -> slowInWork.get() == 1 && fastHandled.get() == 3);
        q.broker.publisher().publishAll(q.b, jobs("slow", "mail", "mail"));
        await().atMost(PATIENCE).until(() -> slowInWork.get() == 2 && fastHandled.get() == 5);
        q.broker.publisher().publishAll(q.b, jobs("slow"));
        await().atMost(PATIENCE).until(() -> slowInWork.get() == 3);
        // eight rows are claimed and not committed, three workers busy: the fourth worker still takes new rows
        q.broker.publisher().publishAll(q.b, jobs("mail", "mail", "mail", "mail", "mail"));
        q.awaitProcessed(5);
        assertThat(fastHandled).hasValue(10);
        assertThat(slowInWork).hasValue(3);
        letGo.countDown();
        q.awaitProcessed(13);
    }

    /**
     * A row lock claim that reads past a row not yet due (it found fewer due rows than its workers) keeps no
     * lock on that row while its handlers run: once the row is due, another claim takes it. InnoDB keeps the
     * lock of every row a locking read touched until the transaction ends, so on MariaDB and MySQL a claim
     * that came back short is made again with as many rows as it found, and stops at its last one.
     */
    @Test
    public final void a_row_a_holding_claim_passed_over_before_its_time_is_taken_when_it_comes() throws Exception {
        assumeTrue(forms().contains(Form.ROW_LOCK), database() + " takes no row lock form");
        Queue q = queue(Form.ROW_LOCK);
        CountDownLatch slowInWork = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        List<Integer> laterAttempts = new CopyOnWriteArrayList<>();
        q.emails().workers(2).handle((job, d) -> {
            if (job.kind().equals("later")) {
                laterAttempts.add(d.attempt().orElseThrow());
                return laterAttempts.size() == 1 ? Outcome.retryAfter(Duration.ofHours(1)) : Outcome.ack();
            }
            slowInWork.countDown();
            return letGo.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
        });
        q.broker.publisher().publishAll(q.b, jobs("later"));
        q.start();
        await().atMost(PATIENCE).until(() -> laterAttempts.size() == 1 && q.count("attempt = 2") == 1);
        // the claim that takes the slow row asks for two and reads on past it, to the row an hour ahead
        q.broker.publisher().publishAll(q.b, jobs("slow"));
        assertThat(slowInWork.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        clock.advance(Duration.ofHours(2));
        try {
            await().atMost(PATIENCE.dividedBy(2)).until(() -> laterAttempts.size() == 2);
        } finally {
            letGo.countDown();
        }
        q.awaitProcessed(2);
    }

    /**
     * The claim window: while rows are in work, a claim that finds fewer workers free than it could fill
     * waits for more, up to as long as the subscription's recent claims took, so workers that free one after
     * another share one claim. Claims take two seconds here (their statements answer late); four handlers
     * return one by one within that, and the next claim takes the four new rows together. On SQLite, whose claim thread
     * writes the outcomes such a wait would hold up, there is no window: the first freed worker claims alone.
     * Where an advisory settlement walks on (PostgreSQL), each handler's settlement takes its worker's next
     * row, one claim of one row each, and no worker waits for the window.
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void workers_that_free_one_after_another_share_one_claim_within_a_claim_s_time(Form form)
            throws Exception {
        List<Integer> claims = new CopyOnWriteArrayList<>();
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = database().broker(new SlowClaims(pool, Duration.ofSeconds(2))).poolSize(12).clock(clock)
                .pollInterval(POLL).listener(claimsInto(claims)).drainTimeout(Duration.ofSeconds(10)).build();
        brokers.add(broker);
        List<CountDownLatch> letGo = List.of(new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1),
                new CountDownLatch(1));
        CountDownLatch firstInWork = new CountDownLatch(4);
        AtomicInteger returned = new AtomicInteger();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            if (job.n() < 4) {
                firstInWork.countDown();
                letGo.get(job.n()).await(PATIENCE.toSeconds(), SECONDS);
                returned.incrementAndGet();
            }
            return Outcome.ack();
        });
        broker.publisher().publishAll(b, numbered(0, 4));
        broker.start();
        assertThat(firstInWork.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        await().atMost(PATIENCE).until(() -> !claims.isEmpty());
        assertThat(claims).containsExactly(4);
        broker.publisher().publishAll(b, numbered(4, 8));
        for (int i = 0; i < 4; i++) {
            letGo.get(i).countDown();
            int done = i + 1;
            await().atMost(PATIENCE).until(() -> returned.get() == done);
        }
        awaitCount(t, "processed_at is not null", 8);
        if (engine() == Engine.SQLITE) {
            assertThat(claims.get(1)).as("the first claim after a worker freed, of " + claims).isLessThan(4);
        } else if (settlementsWalkOn(b)) {
            // each freed worker's settlement takes that worker's next row itself: no worker waits for a claim
            assertThat(claims).containsExactly(4, 1, 1, 1, 1);
        } else {
            assertThat(claims).containsExactly(4, 4);
        }
    }

    /** Whether an advisory settlement of {@code b} walks on to its worker's next row on this database. */
    private boolean settlementsWalkOn(RoleBinding<Record> b) throws java.sql.SQLException {
        if (b.form() != Form.ADVISORY) {
            return false;
        }
        try (java.sql.Connection c = pool.getConnection()) {
            var dialect = database().dialect(c);
            var ack = dialect.settlements(b, false, null).statements(Kind.ACK).get(0);
            return dialect.advisorySettleAndWalk(b, ack, dev.tablequeue.dialect.ClaimShape.ROWS).isPresent();
        }
    }

    /**
     * Claims ahead: while handlers take less time than claims, a claim takes rows beyond its free workers,
     * up to as many more as there are workers, and those rows wait for the next worker to free. Four workers,
     * or one (whose handlers run on the claim thread), and quick handlers over a thousand rows: some claim
     * takes more rows than there are workers, yet no more handlers than workers ever run at once. On SQLite,
     * whose claim thread writes the outcomes, claims never take more rows than workers are free.
     */
    @ParameterizedTest(name = "{0}, {1} workers")
    @MethodSource("formsAndWorkers")
    public final void quick_handlers_let_a_claim_take_rows_ahead_of_its_workers_but_no_more_than_the_workers_run(
            Form form, int workers) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Integer> claims = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(claimsInto(claims));
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(workers).handle((job, d) -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            running.decrementAndGet();
            return Outcome.ack();
        });
        insertMany(t, "bulk", 1000);
        broker.start();
        await().atMost(Duration.ofMinutes(2)).until(() -> count(t, "processed_at is not null") == 1000);
        assertThat(most.get()).as("handlers running at once").isBetween(1, workers);
        int largest = claims.stream().mapToInt(Integer::intValue).max().orElseThrow();
        String of = "the largest of " + claims.size() + " claims";
        if (engine() != Engine.SQLITE) {
            assertThat(largest).as(of).isBetween(workers + 1, 2 * workers);
        } else {
            assertThat(largest).as(of).isBetween(1, workers);
        }
    }

    /** The row lock and lease forms, at four workers and at one (a {@code @MethodSource}). */
    protected final List<org.junit.jupiter.params.provider.Arguments> formsAndWorkers() {
        List<org.junit.jupiter.params.provider.Arguments> cases = new ArrayList<>();
        for (Form form : rowLockAndLease()) {
            for (int workers : new int[] {4, 1}) {
                cases.add(org.junit.jupiter.params.provider.Arguments.of(form, workers));
            }
        }
        return cases;
    }

    /**
     * Handlers that take longer than claims: no claim takes a row beyond its free workers, so no row waits on
     * a slow handler (each handler here works 200 ms; a claim takes a few).
     */
    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void slow_handlers_keep_every_claim_within_the_free_workers(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Integer> claims = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(claimsInto(claims));
        broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(2).handle((job, d) -> {
            // the handler's work, not a wait for another thread
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            return Outcome.ack();
        });
        insertMany(t, "bulk", 12);
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 12);
        assertThat(claims).as("the rows of each claim").allSatisfy(rows -> assertThat(rows).isBetween(1, 2));
    }

    /**
     * A row claimed ahead that is still waiting for a worker when the drain ends is given back without its
     * handler running. Two workers handle quick rows, a hundred at a time, until a claim takes more than two
     * (the claims take rows ahead); then come rows whose handlers hold on. Two handlers hold, two rows wait
     * for a worker, and the broker closes; once the two handlers return, nothing else runs.
     */
    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void a_row_claimed_ahead_that_waits_for_a_worker_at_the_drain_never_runs(Form form)
            throws Exception {
        assumeTrue(engine() != Engine.SQLITE, "SQLite's claims take no rows ahead");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Integer> claims = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(claimsInto(claims), settings -> settings.drainTimeout(Duration.ofMillis(300)));
        Set<Integer> held = ConcurrentHashMap.newKeySet();
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(2).handle((job, d) -> {
            if (job.kind().equals("hold")) {
                held.add(job.n());
                letGo.await(PATIENCE.toSeconds(), SECONDS);
            }
            return Outcome.ack();
        });
        broker.start();
        int quick = 0;
        for (int round = 0; round < 10 && claims.stream().noneMatch(rows -> rows > 2); round++) {
            insertMany(t, "bulk", 100);
            quick += 100;
            awaitCount(t, "processed_at is not null", quick);
        }
        assertThat(claims).as("claims of the quick rows").anySatisfy(rows -> assertThat(rows).isGreaterThan(2));
        int before = claims.stream().mapToInt(Integer::intValue).sum();
        List<org.jooq.Query> holding = new ArrayList<>();
        for (int n = 0; n < 10; n++) {
            holding.add(dsl().insertInto(t).set(t.GRP, "bulk")
                    .set(t.PAYLOAD, ("{\"n\":" + n + ",\"kind\":\"hold\"}").getBytes()));
        }
        dsl().batch(holding).execute();
        try {
            // two rows in their handlers and two claimed ahead of them
            await().atMost(PATIENCE).until(() -> held.size() == 2
                    && claims.stream().mapToInt(Integer::intValue).sum() - before == 4);
            broker.close();
        } finally {
            letGo.countDown();
        }
        await("no handler but the two that held runs after the drain").during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5)).until(() -> held.size() == 2);
    }

    /** A listener that adds the rows of each claim that took any to {@code claims}. */
    private static BrokerListener claimsInto(List<Integer> claims) {
        return new BrokerListener() {
            @Override
            public void claimed(InboxQueue<?> queue, int rows, Duration took) {
                if (rows > 0) {
                    claims.add(rows);
                }
            }
        };
    }

    private static List<Message> numbered(int from, int to) {
        List<Message> messages = new ArrayList<>();
        for (int n = from; n < to; n++) {
            messages.add(Message.of("emails", new Job(n, "mail")));
        }
        return messages;
    }

    private static List<Message> jobs(String... kinds) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < kinds.length; i++) {
            messages.add(Message.of("emails", new Job(i, kinds[i])));
        }
        return messages;
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void an_outcome_is_written_without_waiting_for_the_next_poll(Form form) throws Exception {
        // the claim that finds the queue empty waits a whole poll interval; the acknowledgement must not
        Queue q = queue(form, settings -> settings.pollInterval(Duration.ofSeconds(60)));
        insertJobs(q.t, 1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        q.emails().workers(2).handle((job, d) -> {
            started.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        q.start();
        assertThat(started.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        // the second worker's claim found nothing: the claim thread waits for its next poll
        Thread claims = Thread.getAllStackTraces().keySet().stream()
                .filter(th -> th.getName().startsWith("tablequeue-" + q.t.getName() + "-")
                        && th.getName().contains("-claim"))
                .findFirst().orElseThrow();
        await().atMost(PATIENCE).during(Duration.ofMillis(300))
                .until(() -> claims.getState() == Thread.State.TIMED_WAITING);
        letGo.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> q.count("processed_at is not null") == 1);
    }

    @Test
    public final void an_advisory_claim_tries_its_candidates_on_the_free_workers_connections_side_by_side() {
        // SQLite takes one writer at a time: its candidates are tried one after another
        assumeTrue(forms().contains(Form.ADVISORY) && engine() != Engine.SQLITE,
                "the advisory form's candidates are tried side by side only where writers run side by side");
        Jobs t = newTable();
        insertJobs(t, 2);
        boolean postgres = engine() == Engine.POSTGRES;
        String lock = postgres ? "select pg_try_advisory_lock(hashtext(?))" : "select get_lock(?, 0)";
        String unlock = postgres ? "select pg_advisory_unlock(hashtext(?))" : "select release_lock(?)";
        CountDownLatch bothLocking = new CountDownLatch(2);
        java.util.concurrent.atomic.AtomicBoolean waitedAlone = new java.util.concurrent.atomic.AtomicBoolean();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory(t.getName() + "-{id}")
                .ownLock((ctx, key) -> {
                    // each of the two candidates' locks waits here until the other one is being taken too
                    bothLocking.countDown();
                    try {
                        if (!bothLocking.await(5, SECONDS)) {
                            waitedAlone.set(true);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return truth(ctx.fetchValue(lock, key));
                })
                .ownUnlock((ctx, key) -> truth(ctx.fetchValue(unlock, key)))
                .build();
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(2).handle((job, d) -> Outcome.ack());
        broker.start();
        awaitCount(t, "processed_at is not null", 2);
        assertThat(waitedAlone).isFalse();
    }

    private static boolean truth(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.longValue() == 1L;
    }

    @Test
    public final void a_settlement_that_fails_in_a_lease_batch_costs_only_its_own_row() {
        assumeTrue(forms().contains(Form.LEASE), database() + " takes no lease form");
        Jobs t = newTable();
        List<Long> ids = insertJobs(t, 8);
        long bad = ids.get(3);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).lease(t.LOCKED_UNTIL)
                // one row's acknowledgement fails in the database (on PostgreSQL it aborts the transaction)
                .own(dev.tablequeue.binding.Event.ACK, (ctx, id) -> {
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) id)).execute();
                    if ((Long) id == bad) {
                        ctx.execute("update no_such_table set x = 1");
                    }
                })
                .build();
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = broker(settlementFailuresInto(failures));
        CountDownLatch together = new CountDownLatch(8);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(8).handle((job, d) -> {
            // the eight outcomes arrive at the settlement at about the same time, and go into its batches
            together.countDown();
            together.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 7 && failures.size() == 1);
        assertThat(failures).containsOnlyKeys(bad);
        assertThat(failures.get(bad)).hasMessageContaining("no_such_table");
        assertThat(dsl().fetchValue(DSL.select(t.GRP).from(t).where(t.ID.eq(bad)))).isEqualTo("emails");
    }

    @Test
    public final void a_failed_settlement_rolls_back_the_rows_its_row_lock_claim_took_and_they_return() {
        assumeTrue(forms().contains(Form.ROW_LOCK), database() + " takes no row lock form");
        Jobs t = newTable();
        List<Long> ids = insertJobs(t, 4);
        long bad = ids.get(2);
        java.util.concurrent.atomic.AtomicBoolean failOnce = new java.util.concurrent.atomic.AtomicBoolean(true);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .own(dev.tablequeue.binding.Event.ACK, (ctx, id) -> {
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) id)).execute();
                    if ((Long) id == bad && failOnce.getAndSet(false)) {
                        ctx.execute("update no_such_table set x = 1");
                    }
                })
                .build();
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = broker(settlementFailuresInto(failures));
        Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            deliveries.merge(d.id(t.ID), 1, Integer::sum);
            return Outcome.ack();
        });
        broker.start();
        // the first claim takes the four rows into one transaction; the failed acknowledgement rolls it back,
        // the four rows return, and the next claims acknowledge them
        awaitCount(t, "grp = 'sent'", 4);
        assertThat(failures).containsOnlyKeys(ids);
        assertThat(failures.get(bad)).hasMessageContaining("no_such_table");
        for (long id : ids) {
            if (id != bad) {
                assertThat(failures.get(id)).isInstanceOf(dev.tablequeue.BatchRolledBackException.class)
                        .hasMessageContaining(t.getName()).hasMessageContaining("back in the queue");
            }
        }
        assertThat(deliveries).containsOnlyKeys(ids).allSatisfy((id, n) -> assertThat(n).isEqualTo(2));
    }

    @Test
    public final void a_failing_claim_is_logged_and_retried_and_the_loop_never_dies() {
        AtomicInteger claimFailures = new AtomicInteger();
        Queue q = queue(preferredForm(), new BrokerListener() {
            @Override
            public void claimFailed(InboxQueue<?> queue, Throwable failure) {
                claimFailures.incrementAndGet();
            }
        });
        List<Integer> handled = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        q.start();
        db.execute("DROP TABLE " + q.t.getName());
        await().atMost(PATIENCE).until(() -> claimFailures.get() >= 2);
        db.execute(createTable(q.t.getName()));
        q.publish(1);
        await().atMost(PATIENCE).until(() -> handled.size() == 1);
    }
}
