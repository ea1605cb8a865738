package dev.tablequeue.test.contract;

import dev.tablequeue.binding.Form;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.temporal.Temporal;
import java.util.Set;
import javax.sql.DataSource;
import org.jooq.DataType;

/**
 * What the contract suites need to know of the database and the dialect under test: the hook a dialect author
 * implements once, and names in each suite's subclass ({@code protected ContractDatabase database()}).
 *
 * <pre>{@code
 * enum LiteFork implements ContractDatabase {
 *     FILE;
 *     public Engine engine() { return Engine.SQLITE; }
 *     public QueueDialect dialect(Connection c) { return new LiteForkDialect(); }
 *     public DataType<? extends Temporal> timeType() { return JobsTables.timeType(Engine.SQLITE); }
 *     public String createTable(String name) { return JobsTables.ddl(Engine.SQLITE, name); }
 *     public Set<Form> forms() { return EnumSet.of(Form.LEASE, Form.ADVISORY); }
 *     public QueueBroker.Builder broker(DataSource pool) {
 *         return QueueBroker.builder(pool).dialect(new LiteForkDialect());
 *     }
 * }
 * class LiteForkDialectClaimsIT extends DialectClaimsContract {
 *     protected ContractDatabase database() { return LiteFork.FILE; }
 * }
 * }</pre>
 */
public interface ContractDatabase {

    /** The server the suites make their databases on (through {@link #open}). */
    Engine engine();

    /** The dialect under test, built for the server {@code connection} reaches. */
    QueueDialect dialect(Connection connection) throws SQLException;

    /** The jOOQ type of a {@link Jobs} table's time columns on this database. */
    DataType<? extends Temporal> timeType();

    /**
     * The DDL of a {@link Jobs} table named {@code name}: id (generated), grp, priority (default 0), partition_key,
     * retry_after (default now), attempt (default 1), processed_at, locked_until, headers (text), payload (bytes),
     * note (text), last_error (text); with an index in claim order where the database wants one.
     */
    String createTable(String name);

    /** The forms the dialect takes on this database: a broker suite runs a test of a form for each of these. */
    Set<Form> forms();

    /**
     * A broker builder on {@code pool}, before the suite's own settings: by default the dialect is detected, as a
     * service's broker detects it; a dialect that detection does not find is given here ({@code .dialect(..)}).
     */
    default QueueBroker.Builder broker(DataSource pool) {
        return QueueBroker.builder(pool);
    }

    /**
     * Whether the suites may find the server's sessions that wait on a row lock and kill them, as an operator or a
     * failover does (the tests of a settlement whose connection is killed under it; skipped where this is false).
     * By default on PostgreSQL ({@code pg_stat_activity}, {@code pg_terminate_backend}), MariaDB and MySQL
     * ({@code information_schema.innodb_trx}, {@code KILL CONNECTION}); an embedded database has no sessions, and
     * a server on one of these engines that answers none of those statements says false.
     */
    default boolean killsSessions() {
        return engine() != Engine.SQLITE;
    }

    /** A fresh, empty database for one test class (named {@code name}); the suite closes it after the class. */
    default FreshDatabase open(String name) {
        return FreshDatabase.create(engine(), name);
    }
}
