package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.test.contract.Jobs;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * The advisory lock form where things go wrong: keys held elsewhere, locks that fail or hang, sessions the
 * server ends, key parts that are NULL. Each database runs it through a small subclass; the tests are final.
 */
public abstract class AdvisoryContract extends BrokerFixture {

    private ServerProbe probe() {
        return new ServerProbe(db);
    }

    private void assumeSessionLocks() {
        assumeTrue(engine() != Engine.SQLITE, "SQLite keeps its keys in the process: no session holds one");
    }

    @Test
    public final void a_key_held_in_another_database_of_the_server_does_not_hold_its_row_back() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ADVISORY);
        long id = insertJobs(t, 1).get(0);
        String key = t.getName() + "-" + id;
        try (FreshDatabase other = FreshDatabase.create(engine(), "broker_" + getClass().getSimpleName() + "_other");
                Connection there = other.connect()) {
            // the same key, locked as the dialect locks it, by a session of another database
            var hold = ServerProbe.holdKey(there, key);
            try {
                QueueBroker broker = broker();
                broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
                broker.start();
                await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
            } finally {
                hold.ifPresent(h -> h.release());
            }
        }
    }

    @Test
    public final void a_lock_that_throws_ends_its_session_so_a_key_it_took_is_not_kept() throws Exception {
        assumeSessionLocks();
        Jobs t = newTable();
        long id = insertJobs(t, 1).get(0);
        String key = t.getName() + "-" + id;
        ServerProbe probe = probe();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory(t.getName() + "-{id}")
                .ownLock((ctx, k) -> {
                    boolean took = ServerProbe.truth(ctx.fetchValue(probe.lockSql(), k));
                    if (failOnce.getAndSet(false)) {
                        // the lock service took the key, then failed to say so
                        throw new IllegalStateException("the lock of " + k + " failed after it was taken");
                    }
                    return took;
                })
                .ownUnlock((ctx, k) -> ServerProbe.truth(ctx.fetchValue(probe.unlockSql(), k)))
                .build();
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        // the connection whose lock failed ended its session, which took the key along: the row is taken again
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        await().atMost(PATIENCE).until(() -> !probe.keyHeld(key));
    }

    @Test
    public final void every_failure_of_a_claims_connections_reaches_the_log_and_the_listener() throws Exception {
        assumeSessionLocks();
        Jobs t = newTable();
        List<Long> ids = insertJobs(t, 3);
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        ServerProbe probe = probe();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory(t.getName() + "-{id}")
                .ownLock((ctx, k) -> {
                    if (failedOnce.add(k)) {
                        throw new IllegalStateException("the lock service refused " + k);
                    }
                    return ServerProbe.truth(ctx.fetchValue(probe.lockSql(), k));
                })
                .ownUnlock((ctx, k) -> ServerProbe.truth(ctx.fetchValue(probe.unlockSql(), k)))
                .build();
        List<Throwable> claimFailures = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(new BrokerListener() {
            @Override
            public void claimFailed(InboxQueue<?> queue, Throwable failure) {
                claimFailures.add(failure);
            }
        });
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(3).handle((job, d) -> Outcome.ack());
        try (LogLines log = LogLines.capture()) {
            broker.start();
            await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 3);
            // the three connections of the first claim each failed on their own candidate
            List<String> keys = ids.stream().map(id -> t.getName() + "-" + id).toList();
            assertThat(failedOnce).containsExactlyInAnyOrderElementsOf(keys);
            List<String> reported = new ArrayList<>();
            for (Throwable f : claimFailures) {
                reported.add(f.getMessage());
                for (Throwable s : f.getSuppressed()) {
                    reported.add(s.getMessage());
                }
            }
            for (String key : keys) {
                assertThat(reported).as("the listener hears of " + key).anyMatch(m -> m.endsWith("refused " + key));
                assertThat(log.at("WARN", "refused " + key)).as("the log names " + key).isNotEmpty();
            }
        }
    }

    @Test
    public final void a_connection_of_a_claim_that_hangs_does_not_hold_back_the_other_workers() throws Exception {
        assumeSessionLocks();
        Jobs t = newTable();
        insertJobs(t, 6);
        CountDownLatch hanging = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicBoolean hangOnce = new AtomicBoolean(true);
        ServerProbe probe = probe();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory(t.getName() + "-{id}")
                .ownLock((ctx, k) -> {
                    boolean took = ServerProbe.truth(ctx.fetchValue(probe.lockSql(), k));
                    // the first lock a further connection of a claim takes (they run on virtual threads) takes
                    // its key, then hangs before it answers
                    if (took && Thread.currentThread().isVirtual() && hangOnce.getAndSet(false)) {
                        hanging.countDown();
                        try {
                            letGo.await(PATIENCE.toSeconds(), SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return took;
                })
                .ownUnlock((ctx, k) -> ServerProbe.truth(ctx.fetchValue(probe.unlockSql(), k)))
                .build();
        QueueBroker broker = broker();
        Map<Object, Integer> deliveries = new ConcurrentHashMap<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(3).handle((job, d) -> {
            deliveries.merge(d.id(), 1, Integer::sum);
            return Outcome.ack();
        });
        broker.start();
        assertThat(hanging.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        // five rows are handled while one connection of the first claim still hangs in its lock
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 5);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 6);
        assertThat(deliveries).hasSize(6);
    }

    /**
     * Each settlement's walk is told the keys the subscription's other deliveries in work hold, and passes
     * over their rows: three rows hold their workers while the fourth worker handles the quick rows behind
     * them, each taken by the walk of the one before, which was told the three held keys.
     */
    @Test
    public final void a_settlements_walk_is_told_the_keys_the_subscriptions_other_deliveries_hold() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("note-{note}").build();
        try (Connection c = pool.getConnection()) {
            var dialect = database().dialect(c);
            var ack = dialect.settlements(b, false, null).statements(Kind.ACK).get(0);
            assumeTrue(dialect.advisorySettleAndWalk(b, ack, dev.tablequeue.dialect.ClaimShape.ROWS)
                    .isPresent(), "an advisory settlement walks on");
        }
        int quick = 20;
        for (int i = 0; i < 3 + quick; i++) {
            String kind = i < 3 ? "hold" : "quick";
            dsl().insertInto(t).set(t.GRP, "emails").set(t.NOTE, kind + "-" + i)
                    .set(t.PAYLOAD, ("{\"n\":" + i + ",\"kind\":\"" + kind + "\"}").getBytes()).execute();
        }
        CountingConnections counting = new CountingConnections(pool,
                sql -> CountingConnections.plain(sql).startsWith("with recursive tq_settled as "));
        QueueBroker broker = database().broker(counting).clock(clock).pollInterval(POLL).poolSize(12).build();
        brokers.add(broker);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            if (job.kind().equals("hold")) {
                letGo.await(PATIENCE.toSeconds(), SECONDS);
            }
            return Outcome.ack();
        });
        broker.start();
        try {
            awaitCount(t, "note like 'quick-%' and processed_at is not null", quick);
        } finally {
            letGo.countDown();
        }
        awaitCount(t, "processed_at is not null", 3 + quick);
        broker.close();
        assertThat(counting.textArrays).as("the held keys each walk was told")
                .anySatisfy(keys -> assertThat(keys).containsExactlyInAnyOrder("note-hold-0", "note-hold-1",
                        "note-hold-2"))
                .allSatisfy(keys -> assertThat(keys).allSatisfy(key -> assertThat(key).startsWith("note-hold-")));
    }

    /**
     * Where the dialect walks the rows and walks on from a settlement, a delivery costs one statement: each
     * acknowledgement writes the outcome, releases the key and takes its worker's next row; the claim thread
     * only claims for workers that are free. No key is locked or released by a statement of its own. Elsewhere
     * the claims read candidates. For one worker and for four.
     */
    @Test
    public final void a_delivery_is_one_statement_where_the_settlement_walks_on_to_the_next_row() throws Exception {
        for (int workers : new int[] {1, 4}) {
            Jobs t = newTable();
            RoleBinding<Record> b = binding(t, Form.ADVISORY);
            boolean walksOn;
            try (Connection c = pool.getConnection()) {
                var dialect = database().dialect(c);
                walksOn = dialect.keys(b, dev.tablequeue.dialect.ClaimShape.ROWS, false).walks()
                        && dialect.advisorySettleAndWalk(b,
                                dialect.settlements(b, false, null).statements(Kind.ACK).get(0),
                                dev.tablequeue.dialect.ClaimShape.ROWS).isPresent();
            }
            int rows = 40;
            CountingConnections counting = new CountingConnections(pool, sql -> true);
            QueueBroker broker = database().broker(counting).clock(clock).pollInterval(POLL).poolSize(12).build();
            brokers.add(broker);
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(workers)
                    .handle((job, d) -> Outcome.ack());
            // every row is due before the first claim: no claim finds the queue empty until the last row is taken
            insertMany(t, "emails", rows);
            broker.start();
            awaitCount(t, "processed_at is not null", rows);
            broker.close();
            List<String> statements = counting.executed.stream().map(CountingConnections::plain)
                    .filter(sql -> sql.contains(t.getName())).toList();
            if (!walksOn) {
                assertThat(statements).as("the claims read candidates").anyMatch(sql -> sql.contains("as tq_key"));
                continue;
            }
            assertThat(statements).as("%d workers: every acknowledgement walks on", workers)
                    .filteredOn(sql -> sql.startsWith("with recursive tq_settled as ")).hasSize(rows);
            assertThat(statements).as("the claim thread walks for free workers alone")
                    .filteredOn(sql -> sql.startsWith("with recursive tq_walk as ")).hasSizeBetween(1, rows / 2);
            assertThat(statements).as("no outcome is written apart from a walk")
                    .noneMatch(sql -> sql.startsWith("with tq_settled as ") || sql.startsWith("update "));
            assertThat(counting.executed.stream().map(CountingConnections::plain))
                    .as("no key is locked or released by a statement of its own")
                    .noneMatch(sql -> sql.startsWith("select pg_try_advisory_lock") || sql.startsWith("select pg_advisory_unlock"));
        }
    }

    /**
     * Rows of a key held elsewhere at the head of the queue: a settlement's walk tries as many as a walk may
     * and gives up, and the settlements after it write their outcomes without walking on, so the free rows
     * behind come from the claims' candidates rather than from a long walk per delivery.
     */
    @Test
    public final void after_a_settlement_walk_gives_up_behind_a_held_key_the_next_settlements_do_not_walk()
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("note-{note}").build();
        try (Connection c = pool.getConnection()) {
            var dialect = database().dialect(c);
            var ack = dialect.settlements(b, false, null).statements(Kind.ACK).get(0);
            assumeTrue(dialect.advisorySettleAndWalk(b, ack, dev.tablequeue.dialect.ClaimShape.ROWS)
                    .isPresent(), "an advisory settlement walks on");
        }
        int free = 120;
        for (int i = 0; i < 200 + free; i++) {
            String note = i < 200 ? "held" : "free-" + i;
            dsl().insertInto(t).set(t.GRP, "emails").set(t.NOTE, note)
                    .set(t.PAYLOAD, ("{\"n\":" + i + ",\"kind\":\"" + note + "\"}").getBytes()).execute();
        }
        try (Connection there = db.connect()) {
            var hold = ServerProbe.holdKey(there, "note-held");
            try {
                CountingConnections counting = new CountingConnections(pool, sql -> true);
                QueueBroker broker = database().broker(counting).clock(clock).pollInterval(POLL).poolSize(12).build();
                brokers.add(broker);
                broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4)
                        .handle((job, d) -> Outcome.ack());
                broker.start();
                awaitCount(t, "note like 'free-%' and processed_at is not null", free);
                broker.close();
                assertThat(count(t, "processed_at is not null")).as("no row of the held key").isEqualTo(free);
                long walkedOn = counting.executed.stream().map(CountingConnections::plain)
                        .filter(sql -> sql.startsWith("with recursive tq_settled as ")).count();
                // one settlement in 65 walks on, and each gives up: a few for the whole queue
                assertThat(walkedOn).as("settlements that walked on, of %d", free).isBetween(1L, 8L);
            } finally {
                hold.ifPresent(h -> h.release());
            }
        }
    }

    /**
     * Where the dialect walks the rows, a claim that finds nothing to take is one walk: a walk that reached the
     * last claimable row without locking a key is not made again, and no candidates are read after it; for
     * several free workers too, once a claim has found nothing.
     */
    @Test
    public final void a_claim_that_finds_nothing_is_one_walk() throws Exception {
        for (int workers : new int[] {1, 4}) {
            Jobs t = newTable();
            RoleBinding<Record> b = binding(t, Form.ADVISORY);
            try (Connection c = pool.getConnection()) {
                assumeTrue(database().dialect(c).keys(b, dev.tablequeue.dialect.ClaimShape.ROWS, false).walks(),
                        "the dialect walks the rows");
            }
            CountingConnections counting = new CountingConnections(pool, sql -> true);
            QueueBroker broker = database().broker(counting).clock(clock).pollInterval(POLL).poolSize(12).build();
            brokers.add(broker);
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(workers)
                    .handle((job, d) -> Outcome.ack());
            broker.start();
            await().atMost(PATIENCE).until(() -> statementsOn(counting, t) >= 5);
            broker.close();
            List<String> claims = counting.executed.stream().map(CountingConnections::plain)
                    .filter(sql -> sql.contains(t.getName())).toList();
            assertThat(claims).as("every claim of %d workers on the empty queue is one walk", workers).isNotEmpty()
                    .allMatch(sql -> sql.startsWith("with recursive tq_walk as "));
        }
    }

    /** How many statements on {@code t} the broker has run. */
    private static long statementsOn(CountingConnections counting, Jobs t) {
        return counting.executed.stream().filter(sql -> sql.contains(t.getName())).count();
    }

    /**
     * A row behind more due rows of a key held elsewhere than a walk tries, or than a claim reads at first, is
     * still claimed by one worker: on PostgreSQL the walk gives up and the candidates find it; on SQLite, whose
     * candidates cannot leave out the keys the process holds, the claim reads on past them.
     */
    @Test
    public final void a_row_behind_many_rows_of_a_held_key_is_claimed_by_one_worker() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("note-{note}").build();
        for (int i = 0; i < 201; i++) {
            String note = i < 200 ? "held" : "free";
            dsl().insertInto(t).set(t.GRP, "emails").set(t.NOTE, note)
                    .set(t.PAYLOAD, ("{\"n\":" + i + ",\"kind\":\"" + note + "\"}").getBytes()).execute();
        }
        // a session of its own, whose end releases the key
        try (Connection there = db.connect()) {
            var hold = ServerProbe.holdKey(there, "note-held");
            try {
                QueueBroker broker = broker();
                broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(1)
                        .handle((job, d) -> Outcome.ack());
                broker.start();
                await().atMost(PATIENCE).until(() -> count(t, "note = 'free' and processed_at is not null") == 1);
                assertThat(count(t, "processed_at is not null")).as("no row of the held key").isEqualTo(1);
            } finally {
                hold.ifPresent(h -> h.release());
            }
        }
    }

    @Test
    public final void rows_whose_key_part_is_null_are_locked_under_one_key_and_delivered() throws Exception {
        Jobs t = newTable();
        // the key reads column note, which two rows leave NULL
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("note-{note}").build();
        for (String note : new String[] {null, null, "x"}) {
            dsl().insertInto(t).set(t.GRP, "emails").set(t.NOTE, note)
                    .set(t.PAYLOAD, ("{\"n\":0,\"kind\":\"" + (note == null ? "unnoted" : note) + "\"}").getBytes())
                    .execute();
        }
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicInteger unnotedInWork = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(3).handle((job, d) -> {
            if (!job.kind().equals("unnoted")) {
                return Outcome.ack();
            }
            most.accumulateAndGet(unnotedInWork.incrementAndGet(), Math::max);
            try {
                return letGo.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
            } finally {
                unnotedInWork.decrementAndGet();
            }
        });
        broker.start();
        await().atMost(PATIENCE).until(() -> unnotedInWork.get() == 1 && count(t, "note = 'x'"
                + " and processed_at is not null") == 1);
        // the two rows share the key "note-": the second waits for the first
        await().during(POLL.multipliedBy(6)).atMost(PATIENCE).until(() -> unnotedInWork.get() == 1);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 3);
        assertThat(most).hasValue(1);
    }

    @Test
    public final void a_lock_the_server_ended_with_its_session_is_not_reported_as_kept() throws Exception {
        assumeSessionLocks();
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ADVISORY);
        long id = insertJobs(t, 1).get(0);
        String key = t.getName() + "-" + id;
        ServerProbe probe = probe();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            if (attempts.size() == 1) {
                holding.countDown();
                letGo.await(PATIENCE.toSeconds(), SECONDS);
            }
            return Outcome.ack();
        });
        try (LogLines log = LogLines.capture()) {
            broker.start();
            assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
            // the server ends the session that holds the key, and the lock with it
            probe.kill(probe.holderOf(key).orElseThrow());
            await().atMost(PATIENCE).until(() -> !probe.keyHeld(key));
            letGo.countDown();
            // the acknowledgement failed with its connection; the row returns and is taken again
            await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
            assertThat(attempts).containsExactly(1, 2);
            assertThat(log.at("WARN", key)).as("no warning says the lock of " + key + " is still held").isEmpty();
        }
    }
}
