package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.testkit.LiveDatabase;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/** The broker suite on MariaDB, in every form; times are UTC {@code DATETIME(6)}. */
class MariaDbBrokerTest extends BrokerContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.MARIADB;
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
