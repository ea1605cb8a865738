package dev.tablequeue.it;

import dev.tablequeue.test.contract.WakeupContract;

/** The wake-up suite on a SQLite file: the lease and advisory forms. */
class SqliteWakeupIT extends WakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
