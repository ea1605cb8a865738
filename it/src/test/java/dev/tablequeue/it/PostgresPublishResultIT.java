package dev.tablequeue.it;

/** What a publish returns, on PostgreSQL. */
class PostgresPublishResultIT extends PublishResultContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
