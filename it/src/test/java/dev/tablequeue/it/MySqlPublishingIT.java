package dev.tablequeue.it;

/** The publishing suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlPublishingIT extends PublishingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
