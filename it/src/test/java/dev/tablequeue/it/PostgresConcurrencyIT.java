package dev.tablequeue.it;

/** The concurrency suite on PostgreSQL, in every form. */
class PostgresConcurrencyIT extends ConcurrencyContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
