package dev.tablequeue.it;

import dev.tablequeue.test.contract.HandlerFailureContract;

/** The handler failure suite (published in the kit) on MariaDB. */
class MariaDbHandlerFailureIT extends HandlerFailureContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
