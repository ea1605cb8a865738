package dev.tablequeue.it;

/** The start suite on MariaDB, in every form. */
class MariaDbStartIT extends StartContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
