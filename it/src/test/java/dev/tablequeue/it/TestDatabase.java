package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.testkit.LiveDatabase;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.List;
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

        @Override
        public List<String> ackLedger(String table, String acks) {
            return List.of("CREATE TABLE " + acks + " (job_id BIGINT NOT NULL)",
                    "CREATE FUNCTION " + acks + "_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO " + acks
                            + " (job_id) VALUES (NEW.id); RETURN NULL; END $$",
                    "CREATE TRIGGER " + acks + "_t AFTER UPDATE ON " + table + " FOR EACH ROW WHEN (" + ACKED_PG
                            + ") EXECUTE FUNCTION " + acks + "_f()");
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

        @Override
        public List<String> ackLedger(String table, String acks) {
            return MySqlTables.ackLedger(table, acks);
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

        @Override
        public List<String> ackLedger(String table, String acks) {
            return MySqlTables.ackLedger(table, acks);
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

        /**
         * Write-ahead logging: in the rollback journal a writer waits until no reader is left, and the writers
         * of two processes starve one another (a crash drill saw a two second lease lapse while its keeper
         * and its acknowledgement waited for the file).
         */
        @Override
        public List<String> sharedByProcesses() {
            return List.of("PRAGMA journal_mode=WAL");
        }

        @Override
        public List<String> ackLedger(String table, String acks) {
            return List.of("CREATE TABLE " + acks + " (job_id BIGINT NOT NULL)",
                    "CREATE TRIGGER " + acks + "_t AFTER UPDATE ON " + table + " FOR EACH ROW WHEN " + ACKED
                            + " BEGIN INSERT INTO " + acks + " (job_id) VALUES (NEW.id); END");
        }
    };

    /** An update that writes a (new) processed_at: an acknowledgement, as the {@link #ackLedger} counts them. */
    static final String ACKED = "NEW.processed_at IS NOT NULL"
            + " AND (OLD.processed_at IS NULL OR OLD.processed_at <> NEW.processed_at)";
    private static final String ACKED_PG = "NEW.processed_at IS NOT NULL"
            + " AND OLD.processed_at IS DISTINCT FROM NEW.processed_at";

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

    /** What prepares the database for services in several processes at once; nothing on a server. */
    public List<String> sharedByProcesses() {
        return List.of();
    }

    /**
     * The DDL of an acknowledgement ledger: table {@code acks} (one column, {@code job_id}) and a trigger that
     * writes a row into it, in the same transaction, for every update of {@link Jobs} table {@code table} that
     * writes its {@code processed_at}. A ledger row exists exactly when an acknowledgement committed, whatever
     * happens to the process that wrote it afterwards, so a drill counts lost jobs and double
     * acknowledgements from it.
     */
    public abstract List<String> ackLedger(String table, String acks);
}
