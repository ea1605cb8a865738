package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.testkit.LiveDatabase;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/** The broker suite on PostgreSQL, in every form. */
class PostgresBrokerTest extends BrokerContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.POSTGRES;
    }

    @Override
    protected DataType<? extends Temporal> timeType() {
        return SQLDataType.TIMESTAMPWITHTIMEZONE(6);
    }

    @Override
    protected String createTable(String name) {
        return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, grp TEXT, priority INT NOT NULL DEFAULT 0,"
                + " partition_key TEXT, retry_after TIMESTAMPTZ NOT NULL DEFAULT now(),"
                + " attempt INT NOT NULL DEFAULT 1, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ,"
                + " headers TEXT, payload BYTEA, note TEXT)";
    }

    @Override
    protected Set<Form> forms() {
        return EnumSet.allOf(Form.class);
    }
}
