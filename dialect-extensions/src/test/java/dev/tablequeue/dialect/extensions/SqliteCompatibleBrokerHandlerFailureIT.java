package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.HandlerFailureContract;

/** The broker handler failure suite, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleBrokerHandlerFailureIT extends HandlerFailureContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
