package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.DialectSettlementsContract;

/** The dialect contract's settlements, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleDialectSettlementsIT extends DialectSettlementsContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
