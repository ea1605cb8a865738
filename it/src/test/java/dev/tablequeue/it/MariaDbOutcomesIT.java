package dev.tablequeue.it;

/** The outcomes suite on MariaDB, in every form. */
class MariaDbOutcomesIT extends OutcomesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
