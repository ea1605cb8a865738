package dev.tablequeue.outbox;

import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.test.Engine;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.SQLDialect;
import org.jooq.impl.SQLDataType;

/** What the outbox suite needs of each database: its server, its time type, and the DDL of its test tables. */
public enum OutboxDatabase {
    POSTGRES(Engine.POSTGRES, SQLDialect.POSTGRES, "timestamptz") {
        @Override
        public DataType<? extends Temporal> timeType() {
            return SQLDataType.TIMESTAMPWITHTIMEZONE(6);
        }

        @Override
        boolean writesTwoTablesInOneStatement() {
            return true;
        }

        @Override
        String records(String name) {
            return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, payload BYTEA NOT NULL,"
                    + " headers TEXT, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ)";
        }

        @Override
        String inbox(String name) {
            return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, grp TEXT NOT NULL,"
                    + " retry_after TIMESTAMPTZ NOT NULL DEFAULT now(), attempt INT NOT NULL DEFAULT 1,"
                    + " processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ, headers TEXT, payload BYTEA)";
        }

        @Override
        String business(String name) {
            return "CREATE TABLE " + name + " (id BIGINT PRIMARY KEY, customer TEXT)";
        }
    },
    MARIADB(Engine.MARIADB, SQLDialect.MARIADB, "datetime") {
        @Override
        public DataType<? extends Temporal> timeType() {
            return SQLDataType.LOCALDATETIME(6);
        }

        @Override
        String records(String name) {
            return "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(191) NOT NULL,"
                    + " payload LONGBLOB NOT NULL, headers TEXT, processed_at DATETIME(6), locked_until DATETIME(6),"
                    + " INDEX (name, id))";
        }

        @Override
        String inbox(String name) {
            return "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, grp VARCHAR(191) NOT NULL,"
                    + " retry_after DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)), attempt INT NOT NULL DEFAULT 1,"
                    + " processed_at DATETIME(6), locked_until DATETIME(6), headers TEXT, payload LONGBLOB,"
                    + " INDEX (grp, retry_after, id))";
        }

        @Override
        String business(String name) {
            return "CREATE TABLE " + name + " (id BIGINT PRIMARY KEY, customer TEXT)";
        }
    },
    SQLITE(Engine.SQLITE, SQLDialect.SQLITE, "sqlite") {
        @Override
        public DataType<? extends Temporal> timeType() {
            return SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
        }

        @Override
        String records(String name) {
            return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
                    + " payload BLOB NOT NULL, headers TEXT, processed_at TEXT, locked_until TEXT)";
        }

        @Override
        String inbox(String name) {
            return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT NOT NULL,"
                    + " retry_after TEXT NOT NULL DEFAULT (" + SqliteTime.NOW_SQL + "),"
                    + " attempt INTEGER NOT NULL DEFAULT 1, processed_at TEXT, locked_until TEXT, headers TEXT,"
                    + " payload BLOB)";
        }

        @Override
        String business(String name) {
            return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY, customer TEXT)";
        }
    };

    private final Engine engine;
    private final SQLDialect sqlDialect;
    private final String timeTypeName;

    OutboxDatabase(Engine engine, SQLDialect sqlDialect, String timeTypeName) {
        this.engine = engine;
        this.sqlDialect = sqlDialect;
        this.timeTypeName = timeTypeName;
    }

    public Engine engine() {
        return engine;
    }

    public SQLDialect sqlDialect() {
        return sqlDialect;
    }

    /** The time type's name, as {@link DyingPublisher} takes it. */
    public String timeTypeName() {
        return timeTypeName;
    }

    public abstract DataType<? extends Temporal> timeType();

    /**
     * Whether a publish into the table broker in the caller's transaction writes the outbox's record in the
     * statement of its own row (a data-modifying CTE), rather than in a statement before it.
     */
    boolean writesTwoTablesInOneStatement() {
        return false;
    }

    /** The DDL of a {@link RecordTable} named {@code name}. */
    abstract String records(String name);

    /** The DDL of an {@link InboxTable} named {@code name}. */
    abstract String inbox(String name);

    /** The DDL of a table of the service's own data written beside a record (an order: id, customer). */
    abstract String business(String name);

    static OutboxDatabase ofTimeType(String name) {
        for (OutboxDatabase d : values()) {
            if (d.timeTypeName.equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException(name);
    }
}
