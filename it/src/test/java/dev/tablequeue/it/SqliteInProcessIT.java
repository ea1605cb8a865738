package dev.tablequeue.it;

/** The in-process suite on SQLite, in the lease and advisory forms. */
class SqliteInProcessIT extends InProcessContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
