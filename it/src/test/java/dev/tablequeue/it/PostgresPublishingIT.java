package dev.tablequeue.it;

/** The publishing suite on PostgreSQL, in every form. */
class PostgresPublishingIT extends PublishingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
