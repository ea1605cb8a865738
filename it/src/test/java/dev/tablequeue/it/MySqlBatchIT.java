package dev.tablequeue.it;

/** The batch suite on MySQL 8 (where TABLEQUEUE_MYSQL_URL names a server). */
class MySqlBatchIT extends BatchContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
