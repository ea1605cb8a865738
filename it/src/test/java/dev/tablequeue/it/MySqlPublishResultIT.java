package dev.tablequeue.it;

/** What a publish returns, on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlPublishResultIT extends PublishResultContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
