package dev.tablequeue.dialect;

import dev.tablequeue.testkit.LiveDatabase;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/** The dialect contract on MariaDB, with the dialect picked from what the driver reports. */
class MariaDbDialectIT extends DialectContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.MARIADB;
    }

    @Override
    protected QueueDialect dialect(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        return MySqlDialect.forServer(meta.getDatabaseProductName(), meta.getDatabaseProductVersion());
    }

    @Override
    protected DataType<? extends Temporal> timeType() {
        return SQLDataType.LOCALDATETIME(6);
    }

    @Override
    protected String createTable(String name) {
        return MySqlQueueTables.ddl(name);
    }
}
