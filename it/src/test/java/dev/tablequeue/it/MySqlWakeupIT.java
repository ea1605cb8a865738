package dev.tablequeue.it;

import dev.tablequeue.test.contract.WakeupContract;

/**
 * The wake-up suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped
 * otherwise).
 */
class MySqlWakeupIT extends WakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
