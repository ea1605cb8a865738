package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.internal.Binds;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link DialectContract} leaves out for SQLite, run on a SQLite file: the shapes the lease claim's
 * RETURNING reads, a holder whose lease ran out and was claimed again, claims racing on threads under
 * SQLite's one writer, a FIFO head that runs out its lease or is not yet due, row-mode inserts, and the
 * wording of the refusals.
 */
class SqliteDialectIT {
    private static final SqliteDialect DIALECT = SqliteQueues.DIALECT;
    /** The host's "now" the statements bind: the tests move it instead of waiting. */
    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private static SqliteQueues queues;

    @BeforeAll
    static void open() {
        queues = new SqliteQueues("sqlite_dialect");
    }

    @AfterAll
    static void close() {
        queues.close();
    }

    private static Binds claim(String group, Instant now, int limit) {
        return new Binds().group(group).now(now).limit(limit).leaseUntil(now.plus(LEASE));
    }

    private static Binds settle(long id, Instant held, Instant now) {
        return new Binds().id(id).leaseHeld(held).now(now).retryAt(now.plusSeconds(60)).destination("escalated");
    }

    private static Set<Long> ids(List<Map<String, Object>> rows) {
        return rows.stream().map(r -> ((Number) r.get("id")).longValue()).collect(Collectors.toSet());
    }

    // ---- the lease claim ----

    @Test
    void a_lease_claim_returns_the_roles_of_each_row_with_the_attempt_as_it_stood() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("lease_stamp");
        RoleBinding<Record> b = SqliteQueues.lease(t);
        try (Connection c = queues.connect()) {
            long fresh = queues.insert(c, t, "g", 0, T0.minusSeconds(2));
            long again = queues.insert(c, t, "g", 0, T0.minusSeconds(1));
            queues.set(c, t, again, "attempt", 4);
            queues.set(c, t, fresh, "partition_key", "customer-9");
            queues.set(c, t, fresh, "headers", "{\"trace\":\"x\"}");

            List<Map<String, Object>> rows =
                    queues.run.rows(c, DIALECT.claimLease(b, ClaimShape.ROLES), claim("g", T0, 5));

            Map<Long, Map<String, Object>> byId = rows.stream()
                    .collect(Collectors.toMap(r -> ((Number) r.get("id")).longValue(), r -> r));
            // and the claim order values the runtime sorts the rows by (RETURNING follows no order)
            assertThat(byId.get(fresh)).containsOnlyKeys("id", "partition_key", "attempt", "headers", "payload",
                    "tq_order_0", "tq_order_1", "tq_order_2");
            assertThat(byId.get(fresh)).containsEntry("attempt", 1)
                    .containsEntry("partition_key", "customer-9")
                    .containsEntry("headers", "{\"trace\":\"x\"}");
            assertThat((byte[]) byId.get(fresh).get("payload")).asString(StandardCharsets.UTF_8)
                    .isEqualTo("payload of g");
            assertThat(byId.get(again)).containsEntry("attempt", 4);
            assertThat(queues.row(c, t, fresh)).containsEntry("attempt", 2)
                    .containsEntry("locked_until", SqliteTime.format(T0.plus(LEASE)));
            assertThat(queues.row(c, t, again)).containsEntry("attempt", 5);
        }
    }

    @Test
    void a_lease_claim_returns_whole_rows_or_ids_as_its_shape_asks() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("lease_shapes");
        RoleBinding<Record> b = SqliteQueues.lease(t);
        try (Connection c = queues.connect()) {
            long first = queues.insert(c, t, "g", 0, T0.minusSeconds(2));
            long second = queues.insert(c, t, "g", 0, T0.minusSeconds(1));

            List<Map<String, Object>> rows =
                    queues.run.rows(c, DIALECT.claimLease(b, ClaimShape.ROWS), claim("g", T0, 1));
            assertThat(rows).singleElement().satisfies(r -> {
                assertThat(r).containsOnlyKeys("id", "grp", "priority", "partition_key", "retry_after", "attempt",
                        "processed_at", "locked_until", "headers", "payload", "note", "last_error", "tq_order_0",
                        "tq_order_1", "tq_order_2");
                assertThat(r).containsEntry("id", (int) first).containsEntry("attempt", 1)
                        .containsEntry("locked_until", SqliteTime.format(T0.plus(LEASE)));
            });
            assertThat(queues.run.rows(c, DIALECT.claimLease(b, ClaimShape.IDS), claim("g", T0, 1)))
                    .extracting(r -> r.get("id")).containsExactly((int) second);
        }
    }

    @Test
    void a_holder_whose_lease_ran_out_and_was_claimed_again_settles_nothing_not_even_a_dead_letter() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("lease_stale");
        QueueTable<OffsetDateTime> dead = queues.create("lease_stale_dead");
        RoleBinding<Record> b = SqliteQueues.lease(t);
        Statement claim = DIALECT.claimLease(b, ClaimShape.IDS);
        try (Connection c = queues.connect()) {
            long id = queues.insert(c, t, "g", 0, T0.minusSeconds(1));
            Instant firstLease = T0.plus(LEASE);
            assertThat(ids(queues.run.rows(c, claim, claim("g", T0, 1)))).containsExactly(id);
            // The first lease runs out; a later claim takes the row with a new token.
            Instant later = firstLease.plusMillis(1);
            assertThat(ids(queues.run.rows(c, claim, claim("g", later, 1)))).containsExactly(id);
            Map<String, Object> before = queues.row(c, t, id);
            assertThat(before).containsEntry("attempt", 3)
                    .containsEntry("locked_until", SqliteTime.format(later.plus(LEASE)));

            Binds stale = settle(id, firstLease, later).leaseUntil(later.plus(LEASE).plusSeconds(15));
            QueueSettlements settlements = DIALECT.settlements(b, true, dead);
            for (Kind kind : Kind.values()) {
                assertThat(settlements.write(c, new QueueSettlements.Outcome(kind, stale))).as(kind.name())
                        .isPresent();
            }
            // the dead letter's delete, which the write leaves once its copy changed nothing, checks the token too
            List<Statement> move = settlements.statements(Kind.DEAD_LETTER_TO_TABLE);
            for (Statement s : List.of(move.get(1), DIALECT.leaseExtend(b))) {
                assertThat(queues.run.update(c, s, stale)).as(s.toString()).isZero();
            }
            assertThat(queues.row(c, t, id)).usingRecursiveComparison().isEqualTo(before);
            assertThat(queues.rows(c, dead)).isEmpty();

            Binds held = settle(id, later.plus(LEASE), later).leaseUntil(later.plus(LEASE).plusSeconds(15));
            assertThat(queues.run.update(c, DIALECT.leaseExtend(b), held)).isOne();
            Binds extended = settle(id, later.plus(LEASE).plusSeconds(15), later);
            assertThat(queues.run.settle(c, b, Kind.ACK, extended)).isEmpty();
            assertThat(queues.row(c, t, id)).containsEntry("processed_at", SqliteTime.format(later));
        }
    }

    @ParameterizedTest(name = "journal mode {0}")
    @ValueSource(strings = {"DELETE", "WAL"})
    void two_claims_from_two_connections_take_disjoint_rows(String journalMode) throws Exception {
        try (SqliteQueues own = new SqliteQueues("sqlite_disjoint_" + journalMode)) {
            own.db.execute("PRAGMA journal_mode = " + journalMode);
            QueueTable<OffsetDateTime> t = own.create("jobs");
            RoleBinding<Record> b = SqliteQueues.lease(t);
            Statement claim = DIALECT.claimLease(b, ClaimShape.IDS);
            int rows = 240;
            try (Connection c = own.connect()) {
                c.setAutoCommit(false);
                for (int i = 0; i < rows; i++) {
                    own.insert(c, t, "g", i % 3, T0.minusSeconds(i));
                }
                c.commit();
            }
            int claimers = 4;
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService threads = Executors.newFixedThreadPool(claimers);
            try (var pool = own.db.pool(claimers)) {
                List<Future<List<Long>>> taken = new ArrayList<>();
                for (int i = 0; i < claimers; i++) {
                    taken.add(threads.submit(() -> {
                        List<Long> mine = new ArrayList<>();
                        start.await();
                        while (true) {
                            List<Map<String, Object>> claimed;
                            try (Connection c = pool.getConnection()) {
                                claimed = own.run.rows(c, claim, claim("g", T0, 7));
                            }
                            if (claimed.isEmpty()) {
                                return mine;
                            }
                            mine.addAll(ids(claimed));
                        }
                    }));
                }
                start.countDown();
                List<Long> all = new ArrayList<>();
                for (Future<List<Long>> f : taken) {
                    all.addAll(f.get(60, TimeUnit.SECONDS));
                }
                assertThat(all).hasSize(rows).doesNotHaveDuplicates();
            } finally {
                threads.shutdownNow();
            }
            try (Connection c = own.connect()) {
                assertThat(own.rows(c, t)).allSatisfy(r -> assertThat(r).containsEntry("attempt", 2));
            }
        }
    }

    // ---- FIFO groups ----

    @Test
    void a_fifo_head_whose_lease_ran_out_is_claimed_again_with_its_attempt_counted_and_the_group_waits_for_it()
            throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("fifo_head");
        RoleBinding<Record> b = SqliteQueues.fifo(t);
        Statement claim = DIALECT.claimLease(b, ClaimShape.IDS);
        try (Connection c = queues.connect()) {
            long first = queues.insert(c, t, "g", 0, T0.minusSeconds(30));
            long second = queues.insert(c, t, "g", 0, T0.minusSeconds(20));
            assertThat(ids(queues.run.rows(c, claim, claim("g", T0, 10)))).containsExactly(first);

            // Its holder crashed: until the lease runs out the group waits, then the head comes back.
            Instant afterLease = T0.plus(LEASE);
            assertThat(queues.run.rows(c, claim, claim("g", afterLease.minusMillis(1), 10))).isEmpty();
            List<Map<String, Object>> again = queues.run.rows(c, DIALECT.claimLease(b, ClaimShape.ROLES),
                    claim("g", afterLease, 10));
            assertThat(again).singleElement().satisfies(r -> assertThat(r)
                    .containsEntry("id", (int) first).containsEntry("attempt", 2));

            Instant held = afterLease.plus(LEASE);
            assertThat(queues.run.settle(c, b, Kind.ACK, settle(first, held, afterLease))).isEmpty();
            assertThat(ids(queues.run.rows(c, claim, claim("g", afterLease, 10)))).containsExactly(second);
        }
    }

    @Test
    void a_fifo_lease_claim_waits_for_a_head_not_yet_due_and_takes_nothing_behind_it() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("fifo_not_due");
        RoleBinding<Record> b = SqliteQueues.fifo(t);
        Statement claim = DIALECT.claimLease(b, ClaimShape.IDS);
        try (Connection c = queues.connect()) {
            long head = queues.insert(c, t, "g", 0, T0.plusSeconds(5));
            queues.insert(c, t, "g", 1, T0.minusSeconds(60)); // due, but behind the head by priority
            assertThat(queues.run.rows(c, claim, claim("g", T0, 10))).isEmpty();
            assertThat(ids(queues.run.rows(c, claim, claim("g", T0.plusSeconds(5), 10)))).containsExactly(head);
        }
    }

    // ---- inserts ----

    @Test
    void the_insert_of_a_row_mode_table_writes_its_data_columns_after_the_roles() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("insert_rows");
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER)
                .lease(t.LOCKED_UNTIL).data(t.NOTE).generated(t.RETRY_AFTER).build();
        Statement insert = DIALECT.insert(b);
        assertThat(insert.params()).extracting(p -> p.column().getName()).containsExactly("grp", "note");
        try (Connection c = queues.connect()) {
            assertThat(queues.run.update(c, insert, new Binds().values(List.of("g", "a note")))).isOne();
            assertThat(queues.rows(c, t)).singleElement().satisfies(r -> assertThat(r)
                    .containsEntry("grp", "g").containsEntry("note", "a note"));
        }
    }

    // ---- refusals ----

    @Test
    void a_row_lock_binding_is_refused_with_the_forms_sqlite_serves() {
        QueueTable<OffsetDateTime> t = new QueueTable<>("row_locked", SqliteQueues.TIME);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).build();
        assertThat(DIALECT.supportsForm(dev.tablequeue.binding.Form.ROW_LOCK)).isFalse();
        assertThatThrownBy(() -> DIALECT.validate(b)).isInstanceOf(DialectException.class)
                .hasMessageContaining("table \"row_locked\"")
                .hasMessageContaining("SQLite has no row locks")
                .hasMessageContaining("lease(..) or advisory(..)");
        assertThatThrownBy(() -> DIALECT.claimRowLock(b, ClaimShape.IDS)).isInstanceOf(DialectException.class)
                .hasMessageContaining("SQLite has no row locks");
        assertThatThrownBy(() -> DIALECT.claimLease(b, ClaimShape.IDS)).isInstanceOf(DialectException.class)
                .hasMessageContaining("SQLite has no row locks");
    }

    @Test
    void an_isolation_level_is_refused_and_the_message_names_the_modes() {
        QueueTable<OffsetDateTime> t = new QueueTable<>("isolated", SqliteQueues.TIME);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).lease(t.LOCKED_UNTIL).isolation(Isolation.READ_COMMITTED)
                .build();
        assertThatThrownBy(() -> DIALECT.validate(b)).isInstanceOf(DialectException.class)
                .hasMessageContaining("table \"isolated\"")
                .hasMessageContaining("serializable")
                .hasMessageContaining("READ_COMMITTED")
                .hasMessageContaining("sqliteMode(DEFERRED | IMMEDIATE | EXCLUSIVE)");
        assertThatThrownBy(() -> DIALECT.transactionOpening(b)).isInstanceOf(DialectException.class);
    }

    @Test
    void a_claim_of_another_form_is_refused() {
        QueueTable<OffsetDateTime> t = new QueueTable<>("forms", SqliteQueues.TIME);
        RoleBinding<Record> advisory = SqliteQueues.advisory(t, "forms-{id}");
        RoleBinding<Record> lease = SqliteQueues.lease(t);
        assertThatThrownBy(() -> DIALECT.claimLease(advisory, ClaimShape.IDS)).isInstanceOf(DialectException.class)
                .hasMessageContaining("the \"lease claim\" statement is built for the lease form only");
        assertThatThrownBy(() -> DIALECT.advisoryCandidates(lease)).isInstanceOf(DialectException.class)
                .hasMessageContaining("advisory form");
        assertThatThrownBy(() -> DIALECT.advisoryTake(lease, ClaimShape.IDS)).isInstanceOf(DialectException.class)
                .hasMessageContaining("advisory form");
        assertThat(DIALECT.supportsForm(dev.tablequeue.binding.Form.LEASE)).isTrue();
        assertThat(DIALECT.supportsForm(dev.tablequeue.binding.Form.ADVISORY)).isTrue();
    }
}
