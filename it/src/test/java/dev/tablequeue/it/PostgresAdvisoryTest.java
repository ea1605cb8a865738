package dev.tablequeue.it;

/** The advisory suite on PostgreSQL. */
class PostgresAdvisoryTest extends AdvisoryContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
