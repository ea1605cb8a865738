package dev.tablequeue.it;

/** The start suite on PostgreSQL, in every form. */
class PostgresStartIT extends StartContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
