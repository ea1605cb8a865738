package dev.tablequeue.it;

/** The in-process suite on PostgreSQL, in every form. */
class PostgresInProcessIT extends InProcessContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
