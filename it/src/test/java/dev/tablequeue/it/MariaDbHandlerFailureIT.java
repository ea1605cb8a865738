package dev.tablequeue.it;

import dev.tablequeue.test.contract.HandlerFailureContract;

/** The handler failure suite on MariaDB. */
class MariaDbHandlerFailureIT extends HandlerFailureContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
