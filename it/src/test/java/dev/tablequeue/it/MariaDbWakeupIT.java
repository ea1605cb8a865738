package dev.tablequeue.it;

import dev.tablequeue.test.contract.WakeupContract;

/** The wake-up suite (published in the kit) on MariaDB. */
class MariaDbWakeupIT extends WakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
