package dev.tablequeue.it;

/** The fault drills on MariaDB. */
class MariaDbDrillIT extends DrillContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
