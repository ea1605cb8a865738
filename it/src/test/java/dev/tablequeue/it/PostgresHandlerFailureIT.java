package dev.tablequeue.it;

import dev.tablequeue.test.contract.HandlerFailureContract;

/** The handler failure suite on PostgreSQL. */
class PostgresHandlerFailureIT extends HandlerFailureContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
