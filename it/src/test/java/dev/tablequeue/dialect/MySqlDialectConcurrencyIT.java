package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.internal.Binds;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Record;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Claimers on threads of their own, each on its own connection, racing for one MariaDB table: every row goes
 * to exactly one claimer in each form, a FIFO group never has two rows in work, and a lease claim does not
 * wait for another one's open transaction (the trap of a one-statement UPDATE .. IN (SELECT .. SKIP LOCKED)).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MySqlDialectConcurrencyIT {
    private static final int CLAIMERS = 4;
    private static final int ROUNDS = 5_000;

    private FreshDatabase db;
    private MySqlDialect dialect;
    private StatementRunner sql;
    private int tables;
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    private final Instant until = now.plusSeconds(600);

    @BeforeAll
    void openDatabase() throws SQLException {
        db = FreshDatabase.create(Engine.MARIADB, "MySqlDialectConcurrencyIT");
        try (Connection c = db.connect()) {
            DatabaseMetaData meta = c.getMetaData();
            dialect = MySqlDialect.forServer(meta.getDatabaseProductName(), meta.getDatabaseProductVersion());
        }
        sql = new StatementRunner(dialect);
    }

    @AfterAll
    void dropDatabase() {
        if (db != null) {
            db.close();
        }
    }

    @Test
    void claimers_racing_in_each_form_take_every_row_exactly_once() throws Exception {
        for (Form form : Form.values()) {
            QueueTable<LocalDateTime> t = newTable();
            RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY)
                    .retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD);
            RoleBinding<Record> b = switch (form) {
                case ROW_LOCK -> builder.build();
                case LEASE -> builder.lease(t.LOCKED_UNTIL).build();
                case ADVISORY -> builder.advisory("race-{id}").build();
            };
            int total = 60;
            for (int i = 0; i < total; i++) {
                insert(t, "a", i % 3);
            }
            List<Long> taken = new CopyOnWriteArrayList<>();
            race(() -> {
                try (Connection c = db.connect()) {
                    for (int round = 0; round < ROUNDS && taken.size() < total; round++) {
                        taken.addAll(claimAndAck(c, b, 2));
                    }
                }
                return null;
            });
            assertThat(taken).as(form + ": every row once").hasSize(total).doesNotHaveDuplicates();
        }
    }

    /** One claim of up to {@code limit} rows in the binding's form, each acknowledged; the ids taken. */
    private List<Long> claimAndAck(Connection c, RoleBinding<Record> b, int limit) throws Exception {
        StatementRunner.ClaimAt claim = new StatementRunner.ClaimAt("a", now, limit, until);
        List<Long> ids = new ArrayList<>();
        switch (b.form()) {
            case ROW_LOCK -> {
                sql.begin(c, b);
                ids.addAll(StatementRunner.ids(sql.claimInTransaction(c, b, ClaimShape.IDS, claim)));
                for (long id : ids) {
                    sql.settle(c, b, Kind.ACK, new Binds().id(id).now(now));
                }
                sql.commit(c);
            }
            case LEASE -> {
                ids.addAll(StatementRunner.ids(sql.leaseClaim(c, b, ClaimShape.IDS, claim)));
                for (long id : ids) {
                    assertThat(sql.settle(c, b, Kind.ACK, new Binds().id(id).now(now).leaseHeld(until)))
                            .isEmpty();
                }
            }
            case ADVISORY -> {
                var steps = sql.steps(b, ClaimShape.IDS, "a", now);
                for (QueueKeys.Candidate candidate : steps.candidates(c, limit)) {
                    long id = ((Number) candidate.id()).longValue();
                    KeyLocks locks = dialect.keyLocks(b, c);
                    if (!locks.tryLock(c, candidate.key())) {
                        continue;
                    }
                    if (!steps.take(c, id).isEmpty()) {
                        ids.add(id);
                        sql.settle(c, b, Kind.ACK, new Binds().id(id).now(now));
                    }
                    assertThat(locks.unlock(c, candidate.key())).isTrue();
                }
            }
        }
        return ids;
    }

    @Test
    void fifo_claimers_racing_never_have_two_rows_of_one_group_in_work() throws Exception {
        for (Form form : new Form[] {Form.ROW_LOCK, Form.LEASE}) {
            QueueTable<LocalDateTime> t = newTable();
            RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).priority(t.PRIORITY)
                    .retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD);
            RoleBinding<Record> b = form == Form.LEASE ? builder.lease(t.LOCKED_UNTIL).build() : builder.build();
            List<String> groups = List.of("crm", "erp");
            List<Long> order = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                for (String group : groups) {
                    order.add(insert(t, group, 0));
                }
            }
            Map<String, Long> inWork = new ConcurrentHashMap<>();
            Map<String, List<Long>> done = new ConcurrentHashMap<>();
            groups.forEach(g -> done.put(g, new CopyOnWriteArrayList<>()));
            List<String> overlaps = new CopyOnWriteArrayList<>();
            AtomicInteger finished = new AtomicInteger();
            AtomicInteger turn = new AtomicInteger();
            race(() -> {
                try (Connection c = db.connect()) {
                    for (int round = 0; round < ROUNDS && finished.get() < order.size(); round++) {
                        String group = groups.get(turn.getAndIncrement() % groups.size());
                        StatementRunner.ClaimAt claim = new StatementRunner.ClaimAt(group, now, 1, until);
                        if (form == Form.ROW_LOCK) {
                            sql.begin(c, b);
                        }
                        List<Long> ids = StatementRunner.ids(form == Form.ROW_LOCK
                                ? sql.claimInTransaction(c, b, ClaimShape.IDS, claim)
                                : sql.leaseClaim(c, b, ClaimShape.IDS, claim));
                        for (long id : ids) {
                            Long other = inWork.putIfAbsent(group, id);
                            if (other != null) {
                                overlaps.add(group + ": " + id + " taken while " + other + " was in work");
                                continue;
                            }
                            done.get(group).add(id);
                            // in work across a read and the settlement's statement; out of work before the
                            // settlement lets the next claim in (the commit, or under a lease the ack itself)
                            sql.query(c, dialect.fetchByIds(b, ClaimShape.ROLES, 1, true), new Binds().ids(ids));
                            if (form == Form.ROW_LOCK) {
                                sql.settle(c, b, Kind.ACK, new Binds().id(id).now(now));
                                inWork.remove(group, id);
                            } else {
                                inWork.remove(group, id);
                                sql.settle(c, b, Kind.ACK, new Binds().id(id).now(now).leaseHeld(until));
                            }
                            finished.incrementAndGet();
                        }
                        if (form == Form.ROW_LOCK) {
                            sql.commit(c);
                        }
                    }
                }
                return null;
            });
            assertThat(overlaps).as(form + ": rows of one group in work together").isEmpty();
            for (String group : groups) {
                List<Long> expected = order.stream().filter(id -> order.indexOf(id) % 2 == groups.indexOf(group))
                        .toList();
                assertThat(done.get(group)).as(form + ": " + group + " in claim order").isEqualTo(expected);
            }
        }
    }

    @Test
    void a_lease_claim_does_not_wait_for_another_claims_open_transaction() throws Exception {
        QueueTable<LocalDateTime> t = newTable();
        // the claim order is the index's, so the claim reads (and locks) its first rows alone
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).lease(t.LOCKED_UNTIL).payload(t.PAYLOAD).build();
        for (int i = 0; i < 6; i++) {
            insert(t, "a", 0);
        }
        Binds binds = new Binds().group("a").now(now).limit(3).leaseUntil(until);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection first = db.connect()) {
            // the first claim has selected and locked its rows, and not yet stamped or committed them
            sql.begin(first, b);
            List<Long> held = StatementRunner.ids(sql.query(first, dialect.claimLease(b, ClaimShape.IDS), binds));
            assertThat(held).hasSize(3);
            Future<List<Long>> second = pool.submit(() -> {
                try (Connection c = db.connect()) {
                    return StatementRunner.ids(sql.leaseClaim(c, b, ClaimShape.IDS,
                            new StatementRunner.ClaimAt("a", now, 3, until)));
                }
            });
            assertThat(second.get(10, TimeUnit.SECONDS)).hasSize(3).doesNotContainAnyElementsOf(held);
            assertThat(sql.update(first, dialect.leaseStamp(b, held.size()), binds.ids(held))).isEqualTo(3);
            sql.commit(first);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs {@code claimer} on {@link #CLAIMERS} threads released together, and waits for each. */
    private void race(Callable<Void> claimer) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLAIMERS);
        try {
            CyclicBarrier start = new CyclicBarrier(CLAIMERS);
            CountDownLatch ready = new CountDownLatch(CLAIMERS);
            List<Future<Void>> claimers = new ArrayList<>();
            for (int i = 0; i < CLAIMERS; i++) {
                claimers.add(pool.submit(() -> {
                    ready.countDown();
                    start.await(30, TimeUnit.SECONDS);
                    return claimer.call();
                }));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
            for (Future<Void> f : claimers) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private QueueTable<LocalDateTime> newTable() {
        String name = "c" + (++tables);
        db.execute(MySqlQueueTables.ddl(name));
        return new QueueTable<>(name, SQLDataType.LOCALDATETIME(6));
    }

    private long insert(QueueTable<?> t, String group, int priority) {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + t.getName()
                + " (grp, priority, retry_after, payload) VALUES (?, ?, ?, 'p')",
                java.sql.Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, group);
            ps.setInt(2, priority);
            ps.setObject(3, LocalDateTime.ofInstant(now.minusSeconds(60), ZoneOffset.UTC));
            ps.executeUpdate();
            try (var keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
