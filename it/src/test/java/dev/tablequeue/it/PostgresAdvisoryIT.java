package dev.tablequeue.it;

/** The advisory suite on PostgreSQL. */
class PostgresAdvisoryIT extends AdvisoryContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
