package dev.tablequeue.it;

/** The fault drills on a SQLite file. */
class SqliteDrillIT extends DrillContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
