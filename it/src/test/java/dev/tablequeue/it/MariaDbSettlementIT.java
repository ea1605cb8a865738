package dev.tablequeue.it;

import dev.tablequeue.test.contract.SettlementContract;

/** The settlement suite on MariaDB. */
class MariaDbSettlementIT extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
