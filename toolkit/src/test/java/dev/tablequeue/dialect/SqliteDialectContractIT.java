package dev.tablequeue.dialect;

import dev.tablequeue.testkit.LiveDatabase;
import java.sql.Connection;
import java.time.temporal.Temporal;
import org.jooq.DataType;

/** The dialect contract on a SQLite file: times as {@link SqliteTime} text. */
class SqliteDialectContractIT extends DialectContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.SQLITE;
    }

    @Override
    protected QueueDialect dialect(Connection connection) {
        return new SqliteDialect();
    }

    @Override
    protected DataType<? extends Temporal> timeType() {
        return SqliteQueues.TIME;
    }

    @Override
    protected String createTable(String name) {
        return SqliteQueues.ddl(name);
    }
}
