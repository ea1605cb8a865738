package dev.tablequeue.it;

/** The shutdown suite on a SQLite file. */
class SqliteShutdownIT extends ShutdownContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
