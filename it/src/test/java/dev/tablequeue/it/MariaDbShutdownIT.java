package dev.tablequeue.it;

/** The shutdown suite on MariaDB. */
class MariaDbShutdownIT extends ShutdownContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
