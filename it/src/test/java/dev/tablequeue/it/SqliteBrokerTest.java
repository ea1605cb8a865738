package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.testkit.LiveDatabase;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/** The broker suite on a SQLite file: the lease and advisory forms; times are {@link SqliteTime} text. */
class SqliteBrokerTest extends BrokerContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.SQLITE;
    }

    @Override
    protected DataType<? extends Temporal> timeType() {
        return SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
    }

    @Override
    protected String createTable(String name) {
        return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT,"
                + " priority INTEGER NOT NULL DEFAULT 0, partition_key TEXT,"
                + " retry_after TEXT NOT NULL DEFAULT (" + SqliteTime.NOW_SQL + "),"
                + " attempt INTEGER NOT NULL DEFAULT 1, processed_at TEXT, locked_until TEXT, headers TEXT,"
                + " payload BLOB, note TEXT)";
    }

    @Override
    protected Set<Form> forms() {
        return EnumSet.of(Form.LEASE, Form.ADVISORY);
    }
}
