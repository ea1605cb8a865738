package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectManyRowsContract;

/** The dialect contract's settlements of many rows on a SQLite file: json_each. */
class SqliteDialectManyRowsIT extends DialectManyRowsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
