package dev.tablequeue.it;

/** The fault drills on PostgreSQL. */
class PostgresDrillTest extends DrillContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
