package dev.tablequeue.test.contract;

import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.test.Engine;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/**
 * A {@link Jobs} table on each database the kit serves, as our own suites make it: what a
 * {@link ContractDatabase} on one of these engines may answer for {@link ContractDatabase#timeType} and
 * {@link ContractDatabase#createTable}.
 */
public final class JobsTables {
    private JobsTables() {}

    /**
     * The type of the time columns: {@code TIMESTAMPTZ} on PostgreSQL, {@code DATETIME(6)} holding UTC on MySQL
     * and MariaDB, {@link SqliteTime} text on SQLite.
     */
    public static DataType<? extends Temporal> timeType(Engine engine) {
        return switch (engine) {
            case POSTGRES -> SQLDataType.TIMESTAMPWITHTIMEZONE(6);
            case MARIADB, MYSQL -> SQLDataType.LOCALDATETIME(6);
            case SQLITE -> SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
        };
    }

    /**
     * The DDL of a {@link Jobs} table named {@code name} on {@code engine}; on MySQL and MariaDB with an index in
     * claim order.
     */
    public static String ddl(Engine engine, String name) {
        return switch (engine) {
            case POSTGRES -> "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, grp TEXT,"
                    + " priority INT NOT NULL DEFAULT 0, partition_key TEXT,"
                    + " retry_after TIMESTAMPTZ NOT NULL DEFAULT now(), attempt INT NOT NULL DEFAULT 1,"
                    + " processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ, headers TEXT, payload BYTEA, note TEXT,"
                    + " last_error TEXT)";
            case MARIADB, MYSQL -> "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, grp VARCHAR(100),"
                    + " priority INT NOT NULL DEFAULT 0, partition_key VARCHAR(100),"
                    + " retry_after DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)), attempt INT NOT NULL DEFAULT 1,"
                    + " processed_at DATETIME(6) NULL, locked_until DATETIME(6) NULL, headers TEXT, payload LONGBLOB,"
                    + " note VARCHAR(100), last_error TEXT, INDEX " + name + "_claim (grp, priority, retry_after, id))";
            case SQLITE -> "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT,"
                    + " priority INTEGER NOT NULL DEFAULT 0, partition_key TEXT,"
                    + " retry_after TEXT NOT NULL DEFAULT (" + SqliteTime.NOW_SQL + "),"
                    + " attempt INTEGER NOT NULL DEFAULT 1, processed_at TEXT, locked_until TEXT, headers TEXT,"
                    + " payload BLOB, note TEXT, last_error TEXT)";
        };
    }
}
