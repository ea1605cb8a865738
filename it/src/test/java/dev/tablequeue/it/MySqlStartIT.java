package dev.tablequeue.it;

/** The start suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlStartIT extends StartContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
