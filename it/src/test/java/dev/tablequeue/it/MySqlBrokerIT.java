package dev.tablequeue.it;

/** The broker suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlBrokerIT extends BrokerContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
