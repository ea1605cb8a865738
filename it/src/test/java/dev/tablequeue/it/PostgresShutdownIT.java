package dev.tablequeue.it;

/** The shutdown suite on PostgreSQL. */
class PostgresShutdownIT extends ShutdownContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
