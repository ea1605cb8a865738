package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.DeadLetterContract;

/** The broker dead-letter suite, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleBrokerDeadLetterIT extends DeadLetterContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
