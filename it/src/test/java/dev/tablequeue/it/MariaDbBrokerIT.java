package dev.tablequeue.it;

/** The broker suite on MariaDB, in every form. */
class MariaDbBrokerIT extends BrokerContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
