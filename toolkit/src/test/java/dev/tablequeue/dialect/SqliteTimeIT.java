package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.internal.Binds;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TimeZone;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Time on SQLite is text in {@link SqliteTime}'s layout, compared as text: these tests prove that text
 * order is time order, and that the database clock writes the same layout the host binds.
 */
class SqliteTimeIT {
    private static final SqliteDialect DIALECT = SqliteQueues.DIALECT;
    private static final String LAYOUT = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\+00:00";

    private static SqliteQueues queues;

    @BeforeAll
    static void open() {
        queues = new SqliteQueues("sqlite_time");
    }

    @AfterAll
    static void close() {
        queues.close();
    }

    private static final List<Instant> ACROSS_BOUNDARIES = List.of(
            Instant.parse("1999-12-31T23:59:59.999Z"),
            Instant.parse("2000-01-01T00:00:00Z"),
            Instant.parse("2000-01-01T00:00:00.001Z"),
            Instant.parse("2026-11-30T04:00:00Z"),
            Instant.parse("2026-11-30T04:00:00.001Z"),
            Instant.parse("2026-11-30T04:00:00.010Z"),
            Instant.parse("2026-11-30T04:00:00.100Z"),
            Instant.parse("2026-11-30T04:00:00.999Z"),
            Instant.parse("2026-11-30T04:00:01Z"),
            Instant.parse("2026-11-30T04:00:09.999Z"),
            Instant.parse("2026-11-30T04:00:10Z"),
            Instant.parse("2026-11-30T04:59:59.999Z"),
            Instant.parse("2026-11-30T05:00:00Z"),
            Instant.parse("2026-11-30T09:00:00Z"),
            Instant.parse("2026-11-30T10:00:00Z"),
            Instant.parse("2026-12-01T00:00:00Z"),
            Instant.parse("2027-01-01T00:00:00Z"),
            Instant.parse("9999-12-31T23:59:59.999Z"));

    @Test
    void text_order_is_time_order_across_every_boundary_of_the_layout() throws Exception {
        queues.db.execute("CREATE TABLE times (at TEXT)");
        List<Instant> shuffled = new ArrayList<>(ACROSS_BOUNDARIES);
        Collections.shuffle(shuffled, new Random(7));
        try (Connection c = queues.connect()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO times VALUES (?)")) {
                for (Instant at : shuffled) {
                    ps.setObject(1, DIALECT.timeValue(null, at));
                    ps.executeUpdate();
                }
            }
            List<String> sorted = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT at FROM times ORDER BY at");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sorted.add(rs.getString(1));
                }
            }
            assertThat(sorted).allMatch(text -> text.matches(LAYOUT));
            assertThat(sorted).map(text -> SqliteTime.parse(text).toInstant())
                    .containsExactlyElementsOf(ACROSS_BOUNDARIES);
            try (PreparedStatement ps = c.prepareStatement("SELECT ? < ?, ? <= ?")) {
                for (Instant a : ACROSS_BOUNDARIES) {
                    for (Instant b : ACROSS_BOUNDARIES) {
                        ps.setObject(1, DIALECT.timeValue(null, a));
                        ps.setObject(2, DIALECT.timeValue(null, b));
                        ps.setObject(3, DIALECT.timeValue(null, a));
                        ps.setObject(4, DIALECT.timeValue(null, b));
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            assertThat(rs.getBoolean(1)).as(a + " < " + b).isEqualTo(a.isBefore(b));
                            assertThat(rs.getBoolean(2)).as(a + " <= " + b).isEqualTo(!a.isAfter(b));
                        }
                    }
                }
            }
        }
    }

    @Test
    void the_database_clock_writes_the_hosts_layout_and_compares_with_host_times() throws Exception {
        try (Connection c = queues.connect()) {
            Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            String now = scalar(c, "SELECT " + DIALECT.databaseNow(), List.of());
            Instant after = Instant.now();
            assertThat(now).matches(LAYOUT);
            assertThat(SqliteTime.parse(now).toInstant()).isBetween(before.minusSeconds(1), after.plusSeconds(1));
            assertThat(scalar(c, "SELECT " + DIALECT.databaseNow() + " > ?",
                    List.of(DIALECT.timeValue(null, before.minusSeconds(2))))).isEqualTo("1");
            assertThat(scalar(c, "SELECT " + DIALECT.databaseNow() + " < ?",
                    List.of(DIALECT.timeValue(null, after.plusSeconds(2))))).isEqualTo("1");
        }
    }

    @Test
    void a_delay_on_the_database_clock_lands_that_far_from_now() throws Exception {
        String plus = SqliteTime.NOW_SQL.replace("'now')", "'now', ?)");
        try (Connection c = queues.connect()) {
            for (Duration delay : List.of(Duration.ofMillis(12_345), Duration.ofDays(30), Duration.ofMillis(-1_500))) {
                Instant before = Instant.now();
                String at = scalar(c, "SELECT " + plus, List.of(DIALECT.delayValue(delay)));
                Instant after = Instant.now();
                assertThat(at).matches(LAYOUT);
                assertThat(SqliteTime.parse(at).toInstant()).as(delay.toString())
                        .isBetween(before.plus(delay).minusSeconds(1), after.plus(delay).plusSeconds(1));
            }
        }
    }

    @Test
    void statements_on_the_database_clock_take_what_is_due_by_the_servers_now() throws Exception {
        QueueTable<OffsetDateTime> t = queues.create("clock_due");
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("clock_due-{id}")
                .databaseClock().build();
        try (Connection c = queues.connect()) {
            long due = queues.insert(c, t, "g", 0, Instant.now().minusSeconds(1));
            long later = queues.insert(c, t, "g", 0, Instant.now().plusSeconds(3600));
            List<Map<String, Object>> candidates = queues.run.rows(c, DIALECT.advisoryCandidates(b),
                    new Binds().group("g").limit(5));
            assertThat(candidates).extracting(r -> ((Number) r.get("id")).longValue()).containsExactly(due);
            assertThat(queues.run.rows(c, DIALECT.advisoryTake(b, ClaimShape.IDS), new Binds().id(later).group("g")))
                    .isEmpty();
            assertThat(queues.run.rows(c, DIALECT.advisoryTake(b, ClaimShape.IDS), new Binds().id(due).group("g")))
                    .hasSize(1);
            assertThat(queues.run.settle(c, b, Kind.DROP, new Binds().id(due))).isEmpty();
            assertThat((String) queues.row(c, t, due).get("processed_at")).matches(LAYOUT);
        }
    }

    @Test
    void a_time_binds_the_same_text_in_any_default_time_zone() {
        Instant at = Instant.parse("2026-11-30T23:30:00.250Z");
        TimeZone before = TimeZone.getDefault();
        try {
            for (String zone : List.of("UTC", "Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu")) {
                TimeZone.setDefault(TimeZone.getTimeZone(zone));
                assertThat(DIALECT.timeValue(null, at)).as(zone).isEqualTo("2026-11-30T23:30:00.250+00:00");
            }
        } finally {
            TimeZone.setDefault(before);
        }
    }

    private static String scalar(Connection c, String sql, List<Object> values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.size(); i++) {
                ps.setObject(i + 1, values.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
