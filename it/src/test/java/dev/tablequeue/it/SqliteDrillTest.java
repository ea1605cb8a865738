package dev.tablequeue.it;

/** The fault drills on a SQLite file. */
class SqliteDrillTest extends DrillContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
