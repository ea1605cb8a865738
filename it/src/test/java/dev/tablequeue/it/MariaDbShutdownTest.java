package dev.tablequeue.it;

/** The shutdown suite on MariaDB. */
class MariaDbShutdownTest extends ShutdownContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
