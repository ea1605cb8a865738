package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.PostgresDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementBinder;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.test.contract.Jobs;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * PostgreSQL's advisory candidates read the server's lock table once per statement, however many rows the
 * scan passes (a read of {@code pg_locks} takes every partition lock of the server's lock manager, which each
 * key's lock and release of every other session waits for), and read the table in claim order only as far as
 * the rows they return (not through to the end, to sort it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresAdvisoryCandidatesIT {
    private static final int ROWS = 2_000;
    private static final int HELD = 5;

    private final PostgresDialect dialect = new PostgresDialect();
    private FreshDatabase db;
    private Jobs table;
    private RoleBinding<Record> binding;

    @BeforeAll
    void open() {
        db = TestDatabase.POSTGRES.open("advisory_candidates");
        table = new Jobs("jobs", TestDatabase.POSTGRES.timeType());
        db.execute(TestDatabase.POSTGRES.createTable("jobs"));
        // the index a PostgreSQL queue table needs (docs/adopting.md, section 5)
        db.execute("CREATE INDEX jobs_claim ON jobs (grp, priority, retry_after, id) WHERE processed_at IS NULL",
                "INSERT INTO jobs (grp, retry_after) SELECT 'a', now() - interval '1 minute'"
                        + " FROM generate_series(1, " + ROWS + ")", "ANALYZE jobs");
        binding = Jobs.payloadRoles(table).advisory("jobs-{id}").build();
    }

    @AfterAll
    void close() {
        if (db != null) {
            db.close();
        }
    }

    @Test
    void the_candidates_read_the_lock_table_once_and_pass_over_the_held_keys() throws Exception {
        Statement candidates = dialect.keys(binding, ClaimShape.ROLES, false).statements().get(0);
        int limit = 200;
        try (Connection holder = db.connect(); Connection claimer = db.connect()) {
            // another session holds the keys of the first rows in claim order
            for (long id = 1; id <= HELD; id++) {
                try (PreparedStatement lock = holder.prepareStatement(
                        "select pg_advisory_lock(hashtextextended(?, 0))")) {
                    lock.setString(1, "jobs-" + id);
                    lock.execute();
                }
            }

            List<Long> ids = new ArrayList<>();
            try (PreparedStatement ps = claimer.prepareStatement(candidates.sql())) {
                StatementBinder.bind(ps, candidates, binds(limit), dialect);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
            }
            assertThat(ids).hasSize(limit).startsWith((long) HELD + 1).doesNotContain(1L, 2L, 3L, 4L, 5L);

            JsonNode plan;
            try (PreparedStatement ps = claimer.prepareStatement("explain (analyze, format json) "
                    + candidates.sql())) {
                StatementBinder.bind(ps, candidates, binds(limit), dialect);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    plan = new ObjectMapper().readTree(rs.getString(1)).get(0).get("Plan");
                }
            }
            List<JsonNode> lockReads = new ArrayList<>();
            collect(plan, n -> "pg_lock_status".equals(n.path("Function Name").asText()), lockReads);
            assertThat(lockReads).as("the plan's reads of pg_lock_status: %s", plan).hasSize(1);
            assertThat(lockReads.get(0).get("Actual Loops").asInt()).as("reads of the lock table").isEqualTo(1);
            // the scan stops once it has the rows it returns, passing the held ones: it does not read the table
            // through to sort it
            List<JsonNode> scans = new ArrayList<>();
            collect(plan, n -> "jobs".equals(n.path("Relation Name").asText()), scans);
            assertThat(scans).as("the plan's reads of the table: %s", plan).hasSize(1);
            assertThat(scans.get(0).get("Actual Rows").asInt()).as("rows the scan read").isLessThanOrEqualTo(limit + HELD);
        }
    }

    private static Binds binds(int limit) {
        return new Binds().group("a").now(Instant.now()).limit(limit);
    }

    /** The plan nodes that {@code wanted} accepts, however deep. */
    private static void collect(JsonNode node, Predicate<JsonNode> wanted, List<JsonNode> found) {
        if (wanted.test(node)) {
            found.add(node);
        }
        for (JsonNode child : node.path("Plans")) {
            collect(child, wanted, found);
        }
    }
}
