package dev.tablequeue.it;

/** The batch suite on PostgreSQL. */
class PostgresBatchIT extends BatchContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
