package dev.tablequeue.it;

import dev.tablequeue.test.contract.DeadLetterContract;

/** The dead-letter suite on MariaDB, in every form. */
class MariaDbDeadLetterIT extends DeadLetterContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
