package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.SettlementContract;

/** The broker settlement suite, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleBrokerSettlementIT extends SettlementContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
