package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementWriter;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * What MySqlDialect does on a real MariaDB beyond the dialect contract: every statement of every role
 * combination runs (as rendered for MariaDB, and as rendered for MySQL, whose text MariaDB takes too), the
 * lock names, the level each opening sets, the FIFO guard against a row that overtakes the one in work, and
 * time binding. There is no MySQL server here: the MySQL rendering is proven only as far as MariaDB runs it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MySqlDialectIT {
    /** Mixed case on purpose: MariaDB's lock names carry the schema in lower case. */
    private static final String OTHER_SCHEMA = Character.toUpperCase(FreshDatabase.prefix().charAt(0))
            + FreshDatabase.prefix().substring(1) + "MySql_Other";

    private FreshDatabase db;
    private MySqlDialect mariadb;
    private StatementRunner sql;
    private int tables;
    private Connection matrix;
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

    @BeforeAll
    void openDatabase() throws SQLException {
        db = FreshDatabase.create(Engine.MARIADB, "MySqlDialectIT");
        try (Connection c = db.connect()) {
            DatabaseMetaData meta = c.getMetaData();
            mariadb = MySqlDialect.forServer(meta.getDatabaseProductName(), meta.getDatabaseProductVersion());
        }
        sql = new StatementRunner(mariadb);
    }

    @AfterAll
    void dropDatabase() throws SQLException {
        if (matrix != null) {
            matrix.close();
        }
        if (db != null) {
            db.execute("DROP DATABASE IF EXISTS " + OTHER_SCHEMA);
            db.close();
        }
    }

    // ---------------------------------------------------------------- every statement

    @TestFactory
    Stream<DynamicTest> every_statement_of_every_role_combination_prepares_and_executes() throws SQLException {
        matrix = db.connect();
        QueueTable<LocalDateTime> t = newTable();
        QueueTable<LocalDateTime> dead = newTable();
        List<Long> ids = List.of(insert(t, "a", 0, now.minusSeconds(60)), insert(t, "a", 1, now.minusSeconds(30)));
        List<DynamicTest> tests = new ArrayList<>();
        for (MySqlDialect dialect : List.of(mariadb, MySqlDialect.forServer("MySQL", "8.0.36"))) {
            for (RoleCombinations.Combination combination : RoleCombinations.of(t)) {
                tests.add(DynamicTest.dynamicTest(dialect.name() + " rendering: " + combination.name(),
                        () -> runEveryStatement(matrix, new StatementRunner(dialect), combination.binding(), dead,
                                ids)));
            }
        }
        return tests.stream();
    }

    /** Runs each statement the binding has in one transaction, rolled back, so every combination sees the same rows. */
    private void runEveryStatement(Connection c, StatementRunner run, RoleBinding<Record> b, Table<?> dead,
            List<Long> ids) throws SQLException {
        QueueDialect d = run.dialect();
        d.validate(b);
        Binds binds = new Binds().group("a").now(now).limit(5).leaseUntil(now.plusSeconds(30))
                .leaseHeld(now.plusSeconds(30)).retryAt(now.plusSeconds(60)).delay(Duration.ofSeconds(5))
                .destination("dead").key("q-" + ids.get(0)).id(ids.get(0)).values(insertValues(b));
        StatementRunner.ClaimAt claim = new StatementRunner.ClaimAt("a", now, 5, now.plusSeconds(30));
        run.begin(c, b);
        try {
            for (ClaimShape shape : ClaimShape.values()) {
                run.run(c, "SAVEPOINT tq_claim");
                Map<String, Object> fetched = run.query(c, ((JooqClaimsDialect) d).fetchByIds(b, shape, 2, false), new Binds().ids(ids)).get(0);
                switch (b.form()) {
                    case ROW_LOCK, LEASE -> {
                        List<Map<String, Object>> rows = run.claimInTransaction(c, b, shape, claim);
                        assertThat(rows).as("claimed in " + shape).isNotEmpty();
                        assertThat(rows.get(0).keySet()).isEqualTo(fetched.keySet());
                    }
                    case ADVISORY -> {
                        // the runtime's steps: the candidates, the lock, the take (and its fetch)
                        var steps = run.steps(b, shape, "a", now);
                        assertThat(steps.candidates(c, 5)).isNotEmpty();
                        KeyLocks locks = d.keyLocks(b, c);
                        assertThat(locks.tryLock(c, "q-" + ids.get(0))).isTrue();
                        List<Map<String, Object>> taken = steps.take(c, ids.get(0));
                        assertThat(taken).as("taken in " + shape).hasSize(1);
                        assertThat(taken.get(0).keySet()).isEqualTo(fetched.keySet());
                        assertThat(locks.unlock(c, "q-" + ids.get(0))).isTrue();
                    }
                }
                assertThat(run.query(c, ((JooqClaimsDialect) d).fetchByIds(b, shape, 2, true), new Binds().ids(ids))).hasSize(2);
                run.run(c, "ROLLBACK TO SAVEPOINT tq_claim");
            }
            if (b.form() == Form.LEASE) {
                run.claimInTransaction(c, b, ClaimShape.IDS, claim);
                assertThat(d.claims(b, ClaimShape.IDS, false)
                        .extendLease(c, ids.get(0), now.plusSeconds(30), now.plusSeconds(60))).isTrue();
            }
            for (Statement settlement : settlements(d, b, dead)) {
                run.update(c, settlement, binds.ids(List.of()));
            }
            assertThat(run.update(c, d.inserts(b).insert(), binds)).isEqualTo(1);
        } finally {
            run.rollback(c);
            run.run(c, "DO RELEASE_ALL_LOCKS()"); // so a failure leaves no key held for the next combination
        }
    }

    /** The one-row statements of every outcome the binding can write, each dead letter declared. */
    private static List<Statement> settlements(QueueDialect d, RoleBinding<?> b, Table<?> dead) {
        QueueSettlements settlements = d.settlements(b, b.has(Role.GROUP), dead);
        List<Statement> all = new ArrayList<>();
        for (Kind kind : List.of(Kind.RETRY, Kind.RETRY_AFTER, Kind.DEAD_LETTER_TO_GROUP, Kind.ACK, Kind.DROP,
                Kind.DEAD_LETTER_TO_TABLE)) {
            if ((kind != Kind.RETRY_AFTER || b.has(Role.RETRY_AFTER)) && (kind != Kind.DEAD_LETTER_TO_GROUP
                    || b.has(Role.GROUP))) {
                all.addAll(settlements.statements(kind));
            }
        }
        return all;
    }

    private static List<Object> insertValues(RoleBinding<?> b) {
        List<Object> values = new ArrayList<>();
        for (Field<?> column : b.insertColumns()) {
            values.add(switch (column.getName()) {
                case "grp" -> "a";
                case "partition_key" -> "k";
                case "headers" -> "{}";
                case "payload" -> new byte[] {1};
                case "note" -> "n";
                default -> throw new IllegalStateException("no value for " + column.getName());
            });
        }
        return values;
    }

    // ---------------------------------------------------------------- advisory lock names

    @Test
    void a_lock_name_is_the_database_in_lower_case_a_dot_and_the_key() throws Exception {
        QueueTable<LocalDateTime> t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD).advisory("q-{id}").build();
        try (Connection holder = db.connect(); Connection other = db.connect()) {
            assertThat(sql.answer(holder, mariadb.advisoryLock(b).orElseThrow(), new Binds().key("q-7"))).isTrue();
            assertThat(lockHolder(other, db.name() + ".q-7")).isEqualTo(connectionId(holder));
            assertThat(sql.answer(holder, mariadb.advisoryUnlock(b).orElseThrow(), new Binds().key("q-7"))).isTrue();
            assertThat(lockHolder(other, db.name() + ".q-7")).isNull();
        }
    }

    @Test
    void a_table_in_a_schema_of_its_own_locks_names_of_that_schema_in_lower_case() throws Exception {
        db.execute("CREATE DATABASE IF NOT EXISTS " + OTHER_SCHEMA, "CREATE TABLE IF NOT EXISTS " + OTHER_SCHEMA
                + ".jobs (id BIGINT AUTO_INCREMENT PRIMARY KEY, grp VARCHAR(100))",
                "INSERT INTO " + OTHER_SCHEMA + ".jobs (grp) VALUES ('a')");
        OtherSchemaJobs t = new OtherSchemaJobs();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).advisory("k-{id}").build();
        try (Connection holder = db.connect(); Connection other = db.connect()) {
            Binds group = new Binds().group("a").limit(5);
            List<Map<String, Object>> candidates = sql.query(holder, mariadb.advisoryCandidates(b), group);
            assertThat(candidates).hasSize(1);
            String key = (String) candidates.get(0).get("tq_key");
            assertThat(sql.answer(holder, mariadb.advisoryLock(b).orElseThrow(), new Binds().key(key))).isTrue();
            assertThat(lockHolder(other, OTHER_SCHEMA.toLowerCase(Locale.ROOT) + "." + key)).isEqualTo(connectionId(holder));
            assertThat(sql.query(other, mariadb.advisoryCandidates(b), group)).isEmpty();
            assertThat(sql.answer(holder, mariadb.advisoryUnlock(b).orElseThrow(), new Binds().key(key))).isTrue();
        }
    }

    @Test
    void a_name_over_64_characters_is_locked_by_its_sha256_and_candidates_still_pass_over_it() throws Exception {
        QueueTable<LocalDateTime> t = newTable();
        String prefix = "a-key-prefix-long-enough-that-the-lock-name-passes-sixty-four-characters-";
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD)
                .advisory(prefix + "{id}").build();
        long held = insert(t, "a", 0, now.minusSeconds(60));
        long free = insert(t, "a", 1, now.minusSeconds(60));
        String key = prefix + held;
        String name = db.name() + "." + key;
        assertThat(name.length()).isGreaterThan(MySqlDialect.MAX_LOCK_NAME_CHARS);
        Binds group = new Binds().group("a").now(now).limit(5);
        try (Connection holder = db.connect(); Connection other = db.connect()) {
            assertThat(sql.answer(holder, mariadb.advisoryLock(b).orElseThrow(), new Binds().key(key))).isTrue();
            assertThat(lockHolder(other, sha256(other, name))).isEqualTo(connectionId(holder));
            assertThat(StatementRunner.ids(sql.query(other, mariadb.advisoryCandidates(b), group)))
                    .containsExactly(free);
            assertThat(sql.answer(other, mariadb.advisoryLock(b).orElseThrow(), new Binds().key(key))).isFalse();
            assertThat(sql.answer(holder, mariadb.advisoryUnlock(b).orElseThrow(), new Binds().key(key))).isTrue();
            assertThat(StatementRunner.ids(sql.query(other, mariadb.advisoryCandidates(b), group)))
                    .containsExactly(held, free);
        }
    }

    private static Long lockHolder(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT IS_USED_LOCK(?)")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long id = rs.getLong(1);
                return rs.wasNull() ? null : id;
            }
        }
    }

    private static long connectionId(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT CONNECTION_ID()"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String sha256(Connection c, String text) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT SHA2(?, 256)")) {
            ps.setString(1, text);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    // ---------------------------------------------------------------- openings

    @Test
    void each_opening_sets_the_level_of_the_transaction_it_opens_and_none_declared_opens_read_committed()
            throws Exception {
        QueueTable<LocalDateTime> t = newTable();
        insert(t, "a", 0, now.minusSeconds(60));
        List<Isolation> levels = new ArrayList<>(List.of(Isolation.values()));
        levels.add(null);
        for (Isolation level : levels) {
            RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD);
            RoleBinding<Record> b = level == null ? builder.build() : builder.isolation(level).build();
            try (Connection c = db.connect()) {
                // the level of the session differs from every one declared, so only the opening can set it
                sql.run(c, "SET SESSION TRANSACTION ISOLATION LEVEL "
                        + (level == Isolation.SERIALIZABLE ? "READ UNCOMMITTED" : "SERIALIZABLE"));
                sql.begin(c, b);
                sql.query(c, mariadb.claimRowLock(b, ClaimShape.IDS), new Binds().group("a").now(now).limit(1));
                Isolation expected = level == null ? Isolation.READ_COMMITTED : level;
                // InnoDB refreshes its table of open transactions only after 0.1 s without reads of it
                String open = Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250))
                        .until(() -> text(c, "SELECT trx_isolation_level FROM information_schema.innodb_trx"
                                + " WHERE trx_mysql_thread_id = CONNECTION_ID()"), java.util.Objects::nonNull);
                assertThat(open).as("the level of a transaction opened at " + level).isEqualTo(expected.sql());
                sql.rollback(c);
            }
        }
    }

    // ---------------------------------------------------------------- FIFO

    @Test
    void a_fifo_claim_takes_nothing_while_a_row_is_in_work_even_when_a_later_row_goes_ahead_of_it()
            throws Exception {
        QueueTable<LocalDateTime> t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).build();
        long inWork = insert(t, "crm", 5, now.minusSeconds(60));
        StatementRunner.ClaimAt binds = new StatementRunner.ClaimAt("crm", now, 1, null);
        try (Connection first = db.connect(); Connection second = db.connect()) {
            sql.begin(first, b);
            assertThat(StatementRunner.ids(sql.claimInTransaction(first, b, ClaimShape.IDS, binds)))
                    .containsExactly(inWork);
            long ahead = insert(t, "crm", 1, now.minusSeconds(60));

            sql.begin(second, b);
            assertThat(sql.claimInTransaction(second, b, ClaimShape.IDS, binds)).isEmpty();
            // what the guard is for: the head alone would now be the row that went ahead
            assertThat(StatementRunner.ids(sql.query(second, mariadb.claimRowLock(b, ClaimShape.IDS),
                    new Binds().group("crm").now(now).limit(1))))
                    .containsExactly(ahead);
            sql.rollback(second);

            assertThat(sql.settle(first, b, Kind.ACK, new Binds().id(inWork).now(now))).isEmpty();
            sql.commit(first);
            sql.begin(second, b);
            assertThat(StatementRunner.ids(sql.claimInTransaction(second, b, ClaimShape.IDS, binds)))
                    .containsExactly(ahead);
            sql.rollback(second);
        }
    }

    /**
     * What the adoption guide says of groups that share a table without a priority column: a claim reads its
     * group's due rows as a range of the claim index (group, processed_at, retry_after, id), and one that
     * reaches the end of that range locks the entry after it, the next group's first row, until its
     * transaction ends. A claim of that group meanwhile passes over that row and takes the one behind it; once
     * the first claim has ended, the row is taken. A FIFO claim of the group takes nothing meanwhile.
     */
    @Test
    void a_claim_that_reads_to_the_end_of_its_group_holds_the_next_groups_first_row_until_it_ends()
            throws Exception {
        QueueTable<LocalDateTime> t = newTable();
        db.execute("ALTER TABLE " + t.getName() + " ADD INDEX " + t.getName()
                + "_unfinished (grp, processed_at, retry_after, id)");
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).build();
        RoleBinding<Record> fifo = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).retryAfter(t.RETRY_AFTER)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).build();
        long head = insert(t, "b", 0, now.minusSeconds(60));
        long behind = insert(t, "b", 0, now.minusSeconds(30));
        StatementRunner.ClaimAt groupA = new StatementRunner.ClaimAt("a", now, 1, null);
        StatementRunner.ClaimAt groupB = new StatementRunner.ClaimAt("b", now, 1, null);
        try (Connection empty = db.connect(); Connection other = db.connect()) {
            // group "a" has no rows: its claim's range ends at the next entry, group "b"'s head
            sql.begin(empty, b);
            assertThat(sql.claimInTransaction(empty, b, ClaimShape.IDS, groupA)).isEmpty();

            sql.begin(other, b);
            assertThat(StatementRunner.ids(sql.claimInTransaction(other, b, ClaimShape.IDS, groupB)))
                    .as("the head is passed over").containsExactly(behind);
            sql.rollback(other);
            sql.begin(other, fifo);
            assertThat(sql.claimInTransaction(other, fifo, ClaimShape.IDS, groupB))
                    .as("a FIFO claim takes nothing").isEmpty();
            sql.rollback(other);

            sql.rollback(empty);
            sql.begin(other, b);
            assertThat(StatementRunner.ids(sql.claimInTransaction(other, b, ClaimShape.IDS, groupB)))
                    .as("taken once the other claim has ended").containsExactly(head);
            sql.rollback(other);
        }
    }

    // ---------------------------------------------------------------- time

    @Test
    void times_bind_as_utc_whatever_the_zone_of_the_jvm() throws Exception {
        QueueTable<LocalDateTime> t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD).build();
        TimeZone zone = TimeZone.getDefault();
        try {
            for (String id : List.of("UTC", "Asia/Kathmandu", "America/St_Johns")) {
                TimeZone.setDefault(TimeZone.getTimeZone(id));
                long row = insert(t, "a", 0, now.minusSeconds(60));
                Instant at = Instant.parse("2026-07-01T10:15:30.123456Z");
                try (Connection c = db.connect()) {
                    assertThat(sql.settle(c, b, Kind.ACK, new Binds().id(row).now(at))).isEmpty();
                    assertThat(text(c, "SELECT CAST(processed_at AS CHAR) FROM " + t.getName() + " WHERE id = " + row))
                            .as("processed_at written with the JVM in " + id)
                            .isEqualTo("2026-07-01 10:15:30.123456");
                }
            }
        } finally {
            TimeZone.setDefault(zone);
        }
    }

    @Test
    void a_lease_token_with_nanoseconds_matches_what_the_claim_wrote() throws Exception {
        QueueTable<LocalDateTime> t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT)
                .lease(t.LOCKED_UNTIL).payload(t.PAYLOAD).build();
        long id = insert(t, "a", 0, now.minusSeconds(60));
        Instant until = now.plusSeconds(30).plusNanos(789);
        try (Connection c = db.connect()) {
            StatementRunner.ClaimAt claim = new StatementRunner.ClaimAt("a", now, 1, until);
            assertThat(StatementRunner.ids(sql.leaseClaim(c, b, ClaimShape.IDS, claim))).containsExactly(id);
            assertThat(sql.settle(c, b, Kind.ACK, new Binds().id(id).now(now).leaseHeld(until))).isEmpty();
        }
    }

    @Test
    void the_database_clock_reads_utc_and_adds_a_delay_in_microseconds() throws Exception {
        try (Connection c = db.connect()) {
            sql.run(c, "SET time_zone = '+05:45'");
            StatementWriter w = new StatementWriter(DSL.using(mariadb.sqlDialect(), StatementWriter.settings()));
            Statement read = w.statement("now", w.dsl().select(
                    mariadb.databaseNow().as("now"), mariadb.databaseNowPlus(w).as("later")));
            Map<String, Object> row = sql.query(c, read, new Binds().delay(Duration.ofMillis(1500).plusNanos(2500)))
                    .get(0);
            LocalDateTime serverNow = toLocal(row.get("now"));
            assertThat(Duration.between(serverNow.toInstant(ZoneOffset.UTC), Instant.now()).abs())
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(Duration.between(serverNow, toLocal(row.get("later")))).isEqualTo(Duration.ofNanos(1_500_002_000));
        }
    }

    private static LocalDateTime toLocal(Object value) {
        return value instanceof java.sql.Timestamp ts ? ts.toLocalDateTime() : (LocalDateTime) value;
    }

    /** The first column of the first row, or null where there is none. */
    private static String text(Connection c, String query) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(query); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    // ---------------------------------------------------------------- fixture

    private QueueTable<LocalDateTime> newTable() {
        String name = "m" + (++tables);
        db.execute(MySqlQueueTables.ddl(name));
        return new QueueTable<>(name, SQLDataType.LOCALDATETIME(6));
    }

    private long insert(QueueTable<?> t, String group, int priority, Instant due) {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + t.getName()
                + " (grp, priority, retry_after, headers, payload, note) VALUES (?, ?, ?, '{}', 'p', 'n')",
                java.sql.Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, group);
            ps.setInt(2, priority);
            ps.setObject(3, LocalDateTime.ofInstant(due, ZoneOffset.UTC));
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A table of a schema of its own, as jOOQ generates one. */
    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): these tables also run on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    private static final class OtherSchemaJobs extends TableImpl<Record> {
        private static final long serialVersionUID = 1L;

        final TableField<Record, Long> ID;
        final TableField<Record, String> GRP;

        OtherSchemaJobs() {
            super(DSL.name("jobs"), DSL.schema(DSL.name(OTHER_SCHEMA)));
            ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
            GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(100), this, "");
        }
    }
}
