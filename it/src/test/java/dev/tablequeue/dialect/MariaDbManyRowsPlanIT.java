package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementBinder;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * How MariaDB plans the settlements of many rows: each statement, over a table of thousands of rows, finds
 * every row it writes by the queue table's primary key ({@code eq_ref} on {@code PRIMARY}, after reading the
 * JSON rows), for integer ids, for text ids whose collation is not the connection's, and for BINARY(16) ids.
 * MariaDB 10.11 plans {@code UPDATE t .. WHERE id IN (SELECT ..)} as a scan of {@code t}; these are
 * multi-table statements so that it does not.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MariaDbManyRowsPlanIT {
    private static final int ROWS = 5000;
    private FreshDatabase db;
    private MySqlDialect dialect;
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

    @BeforeAll
    void openDatabase() throws SQLException {
        db = FreshDatabase.create(Engine.MARIADB, "MariaDbManyRowsPlanIT");
        try (Connection c = db.connect()) {
            DatabaseMetaData meta = c.getMetaData();
            dialect = MySqlDialect.forServer(meta.getDatabaseProductName(), meta.getDatabaseProductVersion());
        }
    }

    @AfterAll
    void dropDatabase() {
        if (db != null) {
            db.close();
        }
    }

    /** A lease table of {@link #ROWS} rows whose id is {@code idSql}, filled by {@code idOf(seq)}; its binding. */
    private <I> RoleBinding<Record> table(String name, String idSql, DataType<I> idType, String idOf,
            boolean processedAt) {
        return table(name, idSql, idType, idOf, processedAt, ROWS);
    }

    /** A lease table of {@code count} rows whose id is {@code idSql}, filled by {@code idOf(seq)}; its binding. */
    private <I> RoleBinding<Record> table(String name, String idSql, DataType<I> idType, String idOf,
            boolean processedAt, int count) {
        db.execute("CREATE TABLE " + name + " (id " + idSql + " PRIMARY KEY, grp VARCHAR(100), retry_after"
                + " DATETIME(6) NOT NULL DEFAULT UTC_TIMESTAMP(6), attempt INT NOT NULL DEFAULT 1, processed_at"
                + " DATETIME(6), locked_until DATETIME(6), last_error TEXT, payload LONGBLOB)"
                + " DEFAULT CHARSET utf8mb4 COLLATE utf8mb4_unicode_ci",
                "INSERT INTO " + name + " (id, grp) SELECT " + idOf + ", 'a' FROM seq_1_to_" + count,
                "ANALYZE TABLE " + name);
        Table<Record> t = DSL.table(DSL.name(name));
        DataType<LocalDateTime> time = SQLDataType.LOCALDATETIME(6);
        RoleBinding.Builder<Record> b = RoleBinding.of(t, DSL.field(DSL.name(name, "id"), idType))
                .group(DSL.field(DSL.name(name, "grp"), SQLDataType.VARCHAR(100)))
                .retryAfter(DSL.field(DSL.name(name, "retry_after"), time))
                .attempt(DSL.field(DSL.name(name, "attempt"), SQLDataType.INTEGER))
                .lease(DSL.field(DSL.name(name, "locked_until"), time))
                .lastError(DSL.field(DSL.name(name, "last_error"), SQLDataType.CLOB))
                .payload(DSL.field(DSL.name(name, "payload"), SQLDataType.BLOB));
        if (processedAt) {
            b.processedAt(DSL.field(DSL.name(name, "processed_at"), time));
        }
        return b.build();
    }

    /** The plan of {@code statement} over 50 rows: each table's access type and key, by table. */
    private Map<String, String[]> explain(Statement statement, IntFunction<Object> id) throws SQLException {
        List<Binds> rows = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            rows.add(new Binds().id(id.apply(i * 37)).now(now).leaseHeld(now).retryAt(now).lastError("e" + i));
        }
        Map<String, String[]> plan = new LinkedHashMap<>();
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("EXPLAIN " + statement.sql())) {
            StatementBinder.bind(ps, statement, new Binds().destination("dead").rows(rows)
                    .rowsEncoding((param, each) -> dialect.rowsTable().value(param, each, dialect)), dialect);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plan.put(rs.getString("table"), new String[] {rs.getString("type"), rs.getString("key")});
                }
            }
        }
        return plan;
    }

    private void assertEveryRowFoundByItsPrimaryKey(RoleBinding<Record> b, IntFunction<Object> id)
            throws SQLException {
        List<Statement> all = new ArrayList<>();
        all.add(dialect.ackMany(b).orElseThrow());
        all.add(dialect.dropMany(b).orElseThrow());
        all.add(dialect.retryMany(b).orElseThrow());
        all.add(dialect.retryAfterMany(b).orElseThrow());
        all.add(dialect.deadLetterToGroupMany(b).orElseThrow());
        for (Statement s : all) {
            Map<String, String[]> plan = explain(s, id);
            assertThat(plan.keySet()).as(s.sql()).containsExactly("tq_v", b.tableName());
            assertThat(plan.get(b.tableName())[0]).as(s.sql()).isIn("eq_ref", "const");
            assertThat(plan.get(b.tableName())[1]).as(s.sql()).isEqualTo("PRIMARY");
        }
    }

    @Test
    void every_settlement_of_many_rows_finds_each_row_by_the_primary_key_with_integer_ids() throws Exception {
        assertEveryRowFoundByItsPrimaryKey(table("ints", "BIGINT", SQLDataType.BIGINT, "seq", true), i -> (long) i);
        // without processed_at an acknowledgement deletes
        assertEveryRowFoundByItsPrimaryKey(table("ints_deleted", "BIGINT", SQLDataType.BIGINT, "seq", false),
                i -> (long) i);
    }

    @Test
    void text_ids_of_another_collation_than_the_connections_are_found_by_the_primary_key() throws Exception {
        assertEveryRowFoundByItsPrimaryKey(table("texts", "VARCHAR(64)", SQLDataType.VARCHAR(64),
                "CONCAT('job-', seq)", true), i -> "job-" + i);
    }

    @Test
    void binary_16_ids_are_found_by_the_primary_key() throws Exception {
        assertEveryRowFoundByItsPrimaryKey(table("bins", "BINARY(16)", SQLDataType.BINARY(16), "UNHEX(MD5(seq))",
                true), i -> hexMd5(i));
    }

    /**
     * A table of a few rows, beside the JSON rows' estimate, is one MariaDB would rather scan; a scan in an UPDATE
     * locks every row it reads, so the statement is told to use the primary key whatever the table's size.
     */
    @Test
    void a_table_of_a_few_rows_is_read_by_its_primary_key_too() throws Exception {
        assertEveryRowFoundByItsPrimaryKey(table("few", "BIGINT", SQLDataType.BIGINT, "seq", true, 5),
                i -> (long) i);
        assertEveryRowFoundByItsPrimaryKey(table("few_deleted", "BIGINT", SQLDataType.BIGINT, "seq", false, 5),
                i -> (long) i);
    }

    /**
     * The fault the hint prevents: rows 4 and 5 are held by another transaction (a row lock claim whose handlers
     * run); acknowledging rows 2 and 3 writes them at once, where a scan would wait for rows 4 and 5 until the
     * server's lock wait timeout.
     */
    @Test
    void acknowledging_some_rows_does_not_wait_for_rows_another_transaction_holds() throws Exception {
        RoleBinding<Record> b = table("held", "BIGINT", SQLDataType.BIGINT, "seq", true, 5);
        QueueSettlements settlements = dialect.settlements(b, false, null);
        // the rows' leases, which a lease table's acknowledgement checks
        Instant lease = Instant.parse("2030-01-01T00:00:00Z");
        db.execute("UPDATE held SET locked_until = '2030-01-01 00:00:00'");
        try (Connection holder = db.connect(); Connection writer = db.connect()) {
            holder.setAutoCommit(false);
            for (long held : new long[] {4, 5}) {
                try (PreparedStatement ps = holder.prepareStatement("SELECT id FROM held WHERE id = ? FOR UPDATE")) {
                    ps.setLong(1, held);
                    ps.executeQuery().close();
                }
            }
            try (java.sql.Statement s = writer.createStatement()) {
                s.execute("SET SESSION innodb_lock_wait_timeout = 1");
            }
            // the two acknowledgements are one statement over both rows, each of which it must change
            List<QueueSettlements.Outcome> acks = new ArrayList<>();
            for (long id : new long[] {2, 3}) {
                acks.add(new QueueSettlements.Outcome(QueueSettlements.Kind.ACK,
                        new Binds().id(id).now(now).leaseHeld(lease)));
            }
            assertThat(settlements.writeAll(writer, acks, true)).as("rows left unchanged").isEmpty();
            holder.rollback();
        }
        List<Long> processed = new ArrayList<>();
        try (Connection c = db.connect(); ResultSet rs = c.createStatement()
                .executeQuery("SELECT id FROM held WHERE processed_at IS NOT NULL ORDER BY id")) {
            while (rs.next()) {
                processed.add(rs.getLong(1));
            }
        }
        assertThat(processed).containsExactly(2L, 3L);
    }

    private static byte[] hexMd5(int i) {
        try {
            return java.security.MessageDigest.getInstance("MD5")
                    .digest(Integer.toString(i).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
