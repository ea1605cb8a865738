package dev.tablequeue.it;

/** The queue admin on MariaDb. */
class MariaDbAdminTest extends AdminContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
