package dev.tablequeue.it;

/** The key order suite on MariaDB, in every form. */
class MariaDbKeyOrderIT extends KeyOrderContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
