package dev.tablequeue.dialect.extensions;

import dev.tablequeue.binding.Form;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.ContractDatabase;
import dev.tablequeue.test.contract.JobsTables;
import java.sql.Connection;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.Set;
import javax.sql.DataSource;
import org.jooq.DataType;

/**
 * {@link SqliteCompatibleDialect} as the contract suites run it: on a SQLite file, the dialect built for
 * a product the driver would report as "LiteFork", and a broker given that dialect (no provider is asked: the
 * suites prove the dialect, and {@link SqliteCompatibleDialectsTest} its detection).
 */
enum LiteFork implements ContractDatabase {
    FILE;

    /** The product name the dialect is built for. */
    static final String PRODUCT = "LiteFork";

    @Override
    public Engine engine() {
        return Engine.SQLITE;
    }

    @Override
    public QueueDialect dialect(Connection connection) {
        return SqliteCompatibleDialect.of(PRODUCT);
    }

    @Override
    public DataType<? extends Temporal> timeType() {
        return JobsTables.timeType(Engine.SQLITE);
    }

    @Override
    public String createTable(String name) {
        return JobsTables.ddl(Engine.SQLITE, name);
    }

    /** SQLite's forms: it has no row locks. */
    @Override
    public Set<Form> forms() {
        return EnumSet.of(Form.LEASE, Form.ADVISORY);
    }

    @Override
    public QueueBroker.Builder broker(DataSource pool) {
        return QueueBroker.builder(pool).dialect(SqliteCompatibleDialect.of(PRODUCT));
    }
}
