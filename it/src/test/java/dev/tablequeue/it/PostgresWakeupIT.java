package dev.tablequeue.it;

import dev.tablequeue.test.contract.WakeupContract;

/** The wake-up suite (published in the kit) on PostgreSQL. */
class PostgresWakeupIT extends WakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
