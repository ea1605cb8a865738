package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.ClaimSequence;
import dev.tablequeue.internal.SqliteKeyRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SQLite's advisory form as the runtime drives it: the candidates the dialect selects, the keys the
 * process's {@link SqliteKeyRegistry} passes over or takes, and the take that counts the attempt.
 */
class SqliteAdvisoryIT {
    private static final SqliteDialect DIALECT = SqliteQueues.DIALECT;
    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static SqliteQueues queues;
    private static String database;
    private final SqliteKeyRegistry registry = new SqliteKeyRegistry();

    @BeforeAll
    static void open() throws SQLException {
        queues = new SqliteQueues("sqlite_advisory");
        try (Connection c = queues.connect()) {
            database = SqliteKeyRegistry.databaseOf(c);
        }
    }

    @AfterAll
    static void close() {
        queues.close();
    }

    /** A row taken into work with its key held. */
    private record Taken(Map<String, Object> row, SqliteKeyRegistry.Hold hold) {
        long id() {
            return ((Number) row.get("id")).longValue();
        }
    }

    /**
     * One advisory claim through the runtime's steps: candidates in claim order, keys in work passed over,
     * each other row taken.
     */
    private List<Taken> claim(Connection c, RoleBinding<?> b, int limit) throws SQLException {
        List<Taken> taken = new ArrayList<>();
        ClaimSequence<Map<String, Object>> steps = queues.run.steps(b, ClaimShape.ROLES, "g", T0);
        for (QueueKeys.Candidate candidate : steps.candidates(c, limit)) {
            Optional<SqliteKeyRegistry.Hold> hold = registry.tryTake(database, candidate.key());
            if (hold.isEmpty()) {
                continue;
            }
            List<Map<String, Object>> row = steps.take(c, candidate.id());
            if (row.isEmpty()) {
                hold.get().release();
            } else {
                taken.add(new Taken(row.get(0), hold.get()));
            }
        }
        return taken;
    }

    private static List<Long> ids(List<Taken> taken) {
        return taken.stream().map(Taken::id).toList();
    }

    @Test
    void a_claim_passes_over_keys_in_work_and_takes_them_again_once_released() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("advisory_keys");
        RoleBinding<Record> b = SqliteQueues.advisory(t, "advisory_keys-{id}");
        try (Connection c = queues.connect()) {
            long first = queues.insert(c, t, "g", 0, T0.minusSeconds(30));
            long second = queues.insert(c, t, "g", 0, T0.minusSeconds(20));
            long third = queues.insert(c, t, "g", 0, T0.minusSeconds(10));

            List<Taken> one = claim(c, b, 1);
            assertThat(ids(one)).containsExactly(first);
            assertThat(one.get(0).hold().key()).isEqualTo("advisory_keys-" + first);
            // The candidates are the first due rows alone: while they are in work, a claim takes nothing.
            assertThat(claim(c, b, 1)).isEmpty();
            List<Taken> more = claim(c, b, 3);
            assertThat(ids(more)).containsExactly(second, third);
            assertThat(registry.heldKeys(database)).containsExactlyInAnyOrder("advisory_keys-" + first,
                    "advisory_keys-" + second, "advisory_keys-" + third);
            assertThat(claim(c, b, 3)).isEmpty();

            // The first is acknowledged, then released; the others are retried, which only releases them.
            assertThat(queues.run.settle(c, b, Kind.ACK, new Binds().id(first).now(T0))).isEmpty();
            assertThat(DIALECT.settlements(b, false, null).statements(Kind.RETRY)).isEmpty();
            one.get(0).hold().release();
            more.forEach(taken -> taken.hold().release());
            assertThat(registry.heldKeys(database)).isEmpty();

            List<Taken> again = claim(c, b, 3);
            assertThat(ids(again)).containsExactly(second, third);
            assertThat(again).allSatisfy(taken -> assertThat(taken.row()).containsEntry("attempt", 2));
        }
    }

    @Test
    void the_take_counts_the_attempt_and_returns_it_as_it_stood() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("advisory_attempt");
        RoleBinding<Record> b = SqliteQueues.advisory(t, "advisory_attempt-{id}");
        try (Connection c = queues.connect()) {
            long id = queues.insert(c, t, "g", 0, T0.minusSeconds(1));
            queues.set(c, t, id, "attempt", 3);
            queues.set(c, t, id, "partition_key", "k");
            List<Taken> taken = claim(c, b, 1);
            assertThat(taken).singleElement().satisfies(x -> assertThat(x.row())
                    .containsOnlyKeys("id", "partition_key", "attempt", "payload")
                    .containsEntry("attempt", 3).containsEntry("partition_key", "k"));
            assertThat(queues.row(c, t, id)).containsEntry("attempt", 4);
        }
    }

    @Test
    void a_row_settled_between_the_candidates_and_the_take_is_passed_over_and_its_key_released() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("advisory_settled");
        RoleBinding<Record> b = SqliteQueues.advisory(t, "advisory_settled-{id}");
        try (Connection c = queues.connect(); Connection other = queues.connect()) {
            long id = queues.insert(c, t, "g", 0, T0.minusSeconds(1));
            ClaimSequence<Map<String, Object>> steps = queues.run.steps(b, ClaimShape.ROLES, "g", T0);
            List<QueueKeys.Candidate> candidates = steps.candidates(c, 5);
            assertThat(candidates).hasSize(1);
            String key = candidates.get(0).key();
            SqliteKeyRegistry.Hold hold = registry.tryTake(database, key).orElseThrow();
            queues.run.settle(other, b, Kind.ACK, new Binds().id(id).now(T0));
            List<Map<String, Object>> row = steps.take(c, id);
            assertThat(row).isEmpty();
            assertThat(hold.release()).isTrue();
            assertThat(queues.row(c, t, id)).containsEntry("attempt", 1);
        }
    }

    @Test
    void a_key_on_a_column_keeps_the_rows_of_one_key_in_work_one_at_a_time() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("advisory_account");
        RoleBinding<Record> b = SqliteQueues.advisory(t, "account-{partition_key}");
        try (Connection c = queues.connect()) {
            long a1 = queues.insert(c, t, "g", 0, T0.minusSeconds(30));
            long a2 = queues.insert(c, t, "g", 0, T0.minusSeconds(20));
            long b1 = queues.insert(c, t, "g", 0, T0.minusSeconds(10));
            queues.set(c, t, a1, "partition_key", "acct-1");
            queues.set(c, t, a2, "partition_key", "acct-1");
            queues.set(c, t, b1, "partition_key", "acct-2");

            List<Taken> first = claim(c, b, 3);
            assertThat(ids(first)).containsExactly(a1, b1);
            assertThat(registry.heldKeys(database)).containsExactly("account-acct-1", "account-acct-2");

            queues.run.settle(c, b, Kind.ACK, new Binds().id(a1).now(T0));
            first.get(0).hold().release();
            assertThat(ids(claim(c, b, 3))).containsExactly(a2);
        }
    }

    @Test
    void a_table_without_an_attempt_column_takes_its_row_by_a_select() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("advisory_no_attempt");
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER)
                .payload(t.PAYLOAD).advisory("advisory_no_attempt-{id}").build();
        try (Connection c = queues.connect()) {
            long id = queues.insert(c, t, "g", 0, T0.minusSeconds(1));
            queues.insert(c, t, "g", 0, T0.plusSeconds(60));
            List<Taken> taken = claim(c, b, 5);
            assertThat(ids(taken)).containsExactly(id);
            assertThat(taken.get(0).row()).containsOnlyKeys("id", "payload");
            assertThat(queues.run.settle(c, b, Kind.ACK, new Binds().id(id))).isEmpty();
            assertThat(queues.row(c, t, id)).isNull();
        }
    }
}
