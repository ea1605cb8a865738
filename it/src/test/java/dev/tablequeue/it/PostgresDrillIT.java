package dev.tablequeue.it;

/** The fault drills on PostgreSQL. */
class PostgresDrillIT extends DrillContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
