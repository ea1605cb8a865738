package dev.tablequeue.it;

/** The concurrency suite on SQLite, in the lease and advisory forms. */
class SqliteConcurrencyIT extends ConcurrencyContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
