package dev.tablequeue.it;

/** The settlement suite on MariaDB. */
class MariaDbSettlementIT extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
