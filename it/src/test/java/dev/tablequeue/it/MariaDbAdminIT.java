package dev.tablequeue.it;

/** The queue admin on MariaDb. */
class MariaDbAdminIT extends AdminContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
