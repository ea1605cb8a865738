package dev.tablequeue.it;

/** The settlement openings suite on MariaDB. */
class MariaDbSettlementOpeningIT extends SettlementOpeningContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
