package dev.tablequeue.it;

/** The start suite on SQLite, in the lease and advisory forms. */
class SqliteStartIT extends StartContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
