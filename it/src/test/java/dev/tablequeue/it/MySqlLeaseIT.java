package dev.tablequeue.it;

import dev.tablequeue.test.contract.LeaseContract;

/**
 * The lease suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped
 * otherwise).
 */
class MySqlLeaseIT extends LeaseContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
