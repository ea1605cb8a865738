package dev.tablequeue.it;

/** The shutdown suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlShutdownIT extends ShutdownContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
