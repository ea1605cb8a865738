package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.OutcomesContract;

/** The broker outcomes suite, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleBrokerOutcomesIT extends OutcomesContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
