package dev.tablequeue.it;

/** The concurrency suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlConcurrencyIT extends ConcurrencyContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
