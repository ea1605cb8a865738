package dev.tablequeue.dialect;

import dev.tablequeue.testkit.LiveDatabase;
import java.sql.Connection;
import java.time.temporal.Temporal;
import org.jooq.DataType;

/** The dialect contract on PostgreSQL. */
class PostgresDialectIT extends DialectContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.POSTGRES;
    }

    @Override
    protected QueueDialect dialect(Connection connection) {
        return new PostgresDialect();
    }

    @Override
    protected DataType<? extends Temporal> timeType() {
        return QueueTable.pgTime();
    }

    @Override
    protected String createTable(String name) {
        return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, grp TEXT, priority INT NOT NULL DEFAULT 0,"
                + " partition_key TEXT, retry_after TIMESTAMPTZ NOT NULL DEFAULT now(),"
                + " attempt INT NOT NULL DEFAULT 1, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ,"
                + " headers TEXT, payload BYTEA, note TEXT, last_error TEXT)";
    }
}
