package dev.tablequeue.it;

/** The batch suite on SQLite. */
class SqliteBatchIT extends BatchContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
