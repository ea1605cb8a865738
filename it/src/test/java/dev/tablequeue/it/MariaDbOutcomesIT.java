package dev.tablequeue.it;

import dev.tablequeue.test.contract.OutcomesContract;

/** The outcomes suite on MariaDB, in every form. */
class MariaDbOutcomesIT extends OutcomesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
