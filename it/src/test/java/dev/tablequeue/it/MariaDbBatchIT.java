package dev.tablequeue.it;

/** The batch suite on MariaDB. */
class MariaDbBatchIT extends BatchContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
