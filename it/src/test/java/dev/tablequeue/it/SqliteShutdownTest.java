package dev.tablequeue.it;

/** The shutdown suite on a SQLite file. */
class SqliteShutdownTest extends ShutdownContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
