package dev.tablequeue.it;

/** The publishing suite on SQLite, in the lease and advisory forms. */
class SqlitePublishingIT extends PublishingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
