package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.dialect.MySqlDialect;
import dev.tablequeue.dialect.PostgresDialect;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SqliteDialect;
import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.ContractDatabase;
import dev.tablequeue.test.contract.Jobs;
import dev.tablequeue.test.contract.JobsTables;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.SQLDialect;

/**
 * Our databases as the contract suites see them (the kit's {@link ContractDatabase}: the server, the built-in
 * dialect, the time type of its queue tables, the DDL of a {@link Jobs} table and the forms it takes), and what
 * this module's own suites need beside. A suite's per-database class names one of these.
 */
public enum TestDatabase implements ContractDatabase {
    POSTGRES(Engine.POSTGRES, SQLDialect.POSTGRES, EnumSet.allOf(Form.class), "timestamptz") {
        @Override
        public QueueDialect dialect(Connection connection) {
            return new PostgresDialect();
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
    /** MariaDB, with the dialect picked from what the driver reports. */
    MARIADB(Engine.MARIADB, SQLDialect.MARIADB, EnumSet.allOf(Form.class), "datetime") {
        @Override
        public QueueDialect dialect(Connection connection) throws SQLException {
            return mySqlDialect(connection);
        }

        @Override
        public List<String> ackLedger(String table, String acks) {
            return MySqlTables.ackLedger(table, acks);
        }
    },
    /** MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
    MYSQL(Engine.MYSQL, SQLDialect.MYSQL, EnumSet.allOf(Form.class), "datetime") {
        @Override
        public QueueDialect dialect(Connection connection) throws SQLException {
            return mySqlDialect(connection);
        }

        @Override
        public List<String> ackLedger(String table, String acks) {
            return MySqlTables.ackLedger(table, acks);
        }
    },
    /** A SQLite file: the lease and advisory forms; times are {@link SqliteTime} text. */
    SQLITE(Engine.SQLITE, SQLDialect.SQLITE, EnumSet.of(Form.LEASE, Form.ADVISORY), "sqlite") {
        @Override
        public QueueDialect dialect(Connection connection) {
            return new SqliteDialect();
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

    private final Engine engine;
    private final SQLDialect sqlDialect;
    private final Set<Form> forms;
    private final String timeTypeName;

    TestDatabase(Engine engine, SQLDialect sqlDialect, Set<Form> forms, String timeTypeName) {
        this.engine = engine;
        this.sqlDialect = sqlDialect;
        this.forms = forms;
        this.timeTypeName = timeTypeName;
    }

    @Override
    public Engine engine() {
        return engine;
    }

    /** jOOQ's dialect for the test's own statements. */
    public SQLDialect sqlDialect() {
        return sqlDialect;
    }

    /** The forms this database takes. */
    @Override
    public Set<Form> forms() {
        return EnumSet.copyOf(forms);
    }

    /** The time type's name, as {@link DyingService} takes it. */
    public String timeTypeName() {
        return timeTypeName;
    }

    /** The time type of a queue table's time columns. */
    @Override
    public DataType<? extends Temporal> timeType() {
        return JobsTables.timeType(engine);
    }

    /** The DDL of a {@link Jobs} table named {@code name} on this database. */
    @Override
    public String createTable(String name) {
        return JobsTables.ddl(engine, name);
    }

    /** MySqlDialect for the server the driver reports (MySQL 8, or MariaDB). */
    private static QueueDialect mySqlDialect(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        return MySqlDialect.forServer(meta.getDatabaseProductName(), meta.getDatabaseProductVersion());
    }

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
