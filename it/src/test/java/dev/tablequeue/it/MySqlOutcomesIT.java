package dev.tablequeue.it;

import dev.tablequeue.test.contract.OutcomesContract;

/** The outcomes suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlOutcomesIT extends OutcomesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
