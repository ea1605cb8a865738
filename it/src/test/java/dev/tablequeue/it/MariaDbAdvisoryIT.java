package dev.tablequeue.it;

/** The advisory suite on MariaDB. */
class MariaDbAdvisoryIT extends AdvisoryContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
