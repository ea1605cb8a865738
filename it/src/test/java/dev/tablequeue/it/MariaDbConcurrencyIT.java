package dev.tablequeue.it;

/** The concurrency suite on MariaDB, in every form. */
class MariaDbConcurrencyIT extends ConcurrencyContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
