package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.DecodingContract;

/** The broker decoding suite, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleBrokerDecodingIT extends DecodingContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
