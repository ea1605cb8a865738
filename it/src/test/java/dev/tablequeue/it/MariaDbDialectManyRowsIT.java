package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectManyRowsContract;

/** The dialect contract's settlements of many rows on MariaDB: JSON_TABLE. */
class MariaDbDialectManyRowsIT extends DialectManyRowsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
