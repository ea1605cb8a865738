package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.WakeupContract;

/** The broker wake-up suite, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleBrokerWakeupIT extends WakeupContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
