package dev.tablequeue.it;

import dev.tablequeue.test.contract.WakeupContract;

/** The wake-up suite on PostgreSQL. */
class PostgresWakeupIT extends WakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
