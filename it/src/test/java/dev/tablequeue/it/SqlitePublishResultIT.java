package dev.tablequeue.it;

/** What a publish returns, on SQLite. */
class SqlitePublishResultIT extends PublishResultContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
