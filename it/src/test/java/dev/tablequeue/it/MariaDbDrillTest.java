package dev.tablequeue.it;

/** The fault drills on MariaDB. */
class MariaDbDrillTest extends DrillContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
