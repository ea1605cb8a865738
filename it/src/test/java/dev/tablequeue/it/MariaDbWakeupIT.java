package dev.tablequeue.it;

import dev.tablequeue.test.contract.WakeupContract;

/** The wake-up suite on MariaDB. */
class MariaDbWakeupIT extends WakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
