package dev.tablequeue.it;

import dev.tablequeue.test.contract.HandlerFailureContract;

/** The handler failure suite on a SQLite file. */
class SqliteHandlerFailureIT extends HandlerFailureContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
