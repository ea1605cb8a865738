package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.testkit.LiveDatabase;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.SQLDialect;
import org.jooq.impl.SQLDataType;

/**
 * What a broker suite needs to know of each database: its server, the time type of its queue tables, the
 * DDL of a {@link Jobs} table and the forms it takes. A suite's per-database class names one of these.
 */
public enum TestDatabase {
    POSTGRES(LiveDatabase.Engine.POSTGRES, SQLDialect.POSTGRES, EnumSet.allOf(Form.class), "timestamptz") {
        @Override
        public DataType<? extends Temporal> timeType() {
            return SQLDataType.TIMESTAMPWITHTIMEZONE(6);
        }

        @Override
        public String createTable(String name) {
            return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, grp TEXT, priority INT NOT NULL DEFAULT 0,"
                    + " partition_key TEXT, retry_after TIMESTAMPTZ NOT NULL DEFAULT now(),"
                    + " attempt INT NOT NULL DEFAULT 1, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ,"
                    + " headers TEXT, payload BYTEA, note TEXT, last_error TEXT)";
        }
    },
    MARIADB(LiveDatabase.Engine.MARIADB, SQLDialect.MARIADB, EnumSet.allOf(Form.class), "datetime") {
        @Override
        public DataType<? extends Temporal> timeType() {
            return SQLDataType.LOCALDATETIME(6);
        }

        @Override
        public String createTable(String name) {
            return MySqlTables.ddl(name);
        }
    },
    /** MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
    MYSQL(LiveDatabase.Engine.MYSQL, SQLDialect.MYSQL, EnumSet.allOf(Form.class), "datetime") {
        @Override
        public DataType<? extends Temporal> timeType() {
            return SQLDataType.LOCALDATETIME(6);
        }

        @Override
        public String createTable(String name) {
            return MySqlTables.ddl(name);
        }
    },
    /** A SQLite file: the lease and advisory forms; times are {@link SqliteTime} text. */
    SQLITE(LiveDatabase.Engine.SQLITE, SQLDialect.SQLITE, EnumSet.of(Form.LEASE, Form.ADVISORY), "sqlite") {
        @Override
        public DataType<? extends Temporal> timeType() {
            return SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
        }

        @Override
        public String createTable(String name) {
            return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT,"
                    + " priority INTEGER NOT NULL DEFAULT 0, partition_key TEXT,"
                    + " retry_after TEXT NOT NULL DEFAULT (" + SqliteTime.NOW_SQL + "),"
                    + " attempt INTEGER NOT NULL DEFAULT 1, processed_at TEXT, locked_until TEXT, headers TEXT,"
                    + " payload BLOB, note TEXT, last_error TEXT)";
        }
    };

    private final LiveDatabase.Engine engine;
    private final SQLDialect sqlDialect;
    private final Set<Form> forms;
    private final String timeTypeName;

    TestDatabase(LiveDatabase.Engine engine, SQLDialect sqlDialect, Set<Form> forms, String timeTypeName) {
        this.engine = engine;
        this.sqlDialect = sqlDialect;
        this.forms = forms;
        this.timeTypeName = timeTypeName;
    }

    public LiveDatabase.Engine engine() {
        return engine;
    }

    /** jOOQ's dialect for the test's own statements. */
    public SQLDialect sqlDialect() {
        return sqlDialect;
    }

    /** The forms this database takes. */
    public Set<Form> forms() {
        return EnumSet.copyOf(forms);
    }

    /** The time type's name, as {@link DyingService} takes it. */
    public String timeTypeName() {
        return timeTypeName;
    }

    /** The time type of a queue table's time columns. */
    public abstract DataType<? extends Temporal> timeType();

    /** The DDL of a {@link Jobs} table named {@code name} on this database. */
    public abstract String createTable(String name);
}
