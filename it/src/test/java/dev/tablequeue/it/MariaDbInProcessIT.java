package dev.tablequeue.it;

/** The in-process suite on MariaDB, in every form. */
class MariaDbInProcessIT extends InProcessContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
