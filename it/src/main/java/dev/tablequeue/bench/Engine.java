package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.dialect.SqliteTime;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/**
 * A database the harness measures: where its server is, the forms it serves, and the DDL of a bench table.
 *
 * <p>Every bench table has an index in claim order that leaves finished rows out (a partial index where the
 * database has them, processed_at as the index's second column on MariaDB), so that a claim reads its first
 * rows alone however many rows the run has acknowledged: the index a service would give such a table.
 */
enum Engine {
    POSTGRES(Databases.POSTGRES, "TABLEQUEUE_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres"),
    MARIADB(Databases.MARIADB, "TABLEQUEUE_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/?user=root"),
    SQLITE(Databases.SQLITE, null, null);

    private final String label;
    private final String variable;
    private final String fallback;

    Engine(String label, String variable, String fallback) {
        this.label = label;
        this.variable = variable;
        this.fallback = fallback;
    }

    String label() {
        return label;
    }

    static Engine of(String label) {
        for (Engine e : values()) {
            if (e.label.equals(label)) {
                return e;
            }
        }
        throw new IllegalArgumentException("no database \"" + label + "\": postgres, mariadb or sqlite");
    }

    /** The administrative JDBC URL of the server (the tests' variables and defaults), null for SQLite. */
    String adminUrl() {
        if (variable == null) {
            return null;
        }
        String set = System.getenv(variable);
        return set == null || set.isBlank() ? fallback : set;
    }

    /** The forms tablequeue serves on this database. */
    Set<Form> forms() {
        return this == SQLITE ? EnumSet.of(Form.LEASE, Form.ADVISORY) : EnumSet.allOf(Form.class);
    }

    DataType<? extends Temporal> timeType() {
        return switch (this) {
            case POSTGRES -> SQLDataType.TIMESTAMPWITHTIMEZONE(6);
            case MARIADB -> SQLDataType.LOCALDATETIME(6);
            case SQLITE -> SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
        };
    }

    /** The statements that create bench table {@code name} and its claim-order index. */
    List<String> createTable(String name) {
        return switch (this) {
            case POSTGRES -> List.of(
                    "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, grp TEXT NOT NULL,"
                            + " priority INT NOT NULL DEFAULT 0, retry_after TIMESTAMPTZ NOT NULL DEFAULT now(),"
                            + " attempt INT NOT NULL DEFAULT 1, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ,"
                            + " payload BYTEA)",
                    "CREATE INDEX " + name + "_claim ON " + name + " (grp, priority, retry_after, id)"
                            + " WHERE processed_at IS NULL",
                    // a queue table's autovacuum (see docs/adopting.md, section 5): by a fixed count of
                    // dead rows, not a fifth of the table, and without the cost delay
                    "ALTER TABLE " + name + " SET (autovacuum_vacuum_scale_factor = 0,"
                            + " autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_insert_scale_factor = 0,"
                            + " autovacuum_vacuum_insert_threshold = 10000, autovacuum_vacuum_cost_delay = 0)");
            case MARIADB -> List.of(
                    "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, grp VARCHAR(100) NOT NULL,"
                            + " priority INT NOT NULL DEFAULT 0,"
                            + " retry_after DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),"
                            + " attempt INT NOT NULL DEFAULT 1, processed_at DATETIME(6) NULL,"
                            + " locked_until DATETIME(6) NULL, payload LONGBLOB,"
                            + " INDEX " + name + "_claim (grp, processed_at, priority, retry_after, id))");
            case SQLITE -> List.of(
                    "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT NOT NULL,"
                            + " priority INTEGER NOT NULL DEFAULT 0,"
                            + " retry_after TEXT NOT NULL DEFAULT (" + SqliteTime.NOW_SQL + "),"
                            + " attempt INTEGER NOT NULL DEFAULT 1, processed_at TEXT, locked_until TEXT,"
                            + " payload BLOB)",
                    "CREATE INDEX " + name + "_claim ON " + name + " (grp, priority, retry_after, id)"
                            + " WHERE processed_at IS NULL");
        };
    }

    /**
     * The statement that creates the effects table of bench table {@code name}: where a transactional handler
     * (and its raw loops) writes one row per job, keyed by the job's id so that an effect written twice fails.
     */
    String createEffects(String name) {
        return "CREATE TABLE " + effects(name) + " (job_id BIGINT NOT NULL PRIMARY KEY)";
    }

    /** The name of the effects table of bench table {@code name}. */
    static String effects(String name) {
        return name + "_fx";
    }

    /**
     * One statement that writes {@code rows} acknowledged messages into {@code table} (processed_at set to
     * now, the bench payload), generated by the server itself.
     */
    String fillAcknowledged(String table, long rows, byte[] payload) {
        String hex = java.util.HexFormat.of().formatHex(payload);
        return switch (this) {
            case POSTGRES -> "INSERT INTO " + table + " (grp, processed_at, payload) SELECT '" + BenchTable.GROUP
                    + "', now(), '\\x" + hex + "'::bytea FROM generate_series(1, " + rows + ")";
            // the Sequence engine's seq_1_to_N table, built into MariaDB
            case MARIADB -> "INSERT INTO " + table + " (grp, processed_at, payload) SELECT '" + BenchTable.GROUP
                    + "', UTC_TIMESTAMP(6), x'" + hex + "' FROM seq_1_to_" + rows;
            case SQLITE -> "WITH RECURSIVE tq_seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM tq_seq WHERE n < "
                    + rows + ") INSERT INTO " + table + " (grp, processed_at, payload) SELECT '" + BenchTable.GROUP
                    + "', " + SqliteTime.NOW_SQL + ", x'" + hex + "' FROM tq_seq";
        };
    }

    /** The statement that refreshes the planner's statistics of {@code table} after a prefill, if any. */
    String analyze(String table) {
        return switch (this) {
            case POSTGRES -> "ANALYZE " + table;
            case MARIADB -> "ANALYZE TABLE " + table;
            case SQLITE -> "ANALYZE " + table;
        };
    }
}
