package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.LeaseContract;

/** The broker lease suite, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleBrokerLeaseIT extends LeaseContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
