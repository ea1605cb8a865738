package dev.tablequeue.it;

/** The key order suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlKeyOrderIT extends KeyOrderContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
