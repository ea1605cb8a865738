package dev.tablequeue.it;

import dev.tablequeue.test.contract.HandlerFailureContract;

/** The handler failure suite (published in the kit) on PostgreSQL. */
class PostgresHandlerFailureIT extends HandlerFailureContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
