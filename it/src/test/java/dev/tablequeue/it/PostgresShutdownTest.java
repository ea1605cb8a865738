package dev.tablequeue.it;

/** The shutdown suite on PostgreSQL. */
class PostgresShutdownTest extends ShutdownContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
