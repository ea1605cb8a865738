package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.testkit.LiveDatabase;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/** The broker suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlBrokerTest extends BrokerContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.MYSQL;
    }

    @Override
    protected DataType<? extends Temporal> timeType() {
        return SQLDataType.LOCALDATETIME(6);
    }

    @Override
    protected String createTable(String name) {
        return MySqlTables.ddl(name);
    }

    @Override
    protected Set<Form> forms() {
        return EnumSet.allOf(Form.class);
    }
}
