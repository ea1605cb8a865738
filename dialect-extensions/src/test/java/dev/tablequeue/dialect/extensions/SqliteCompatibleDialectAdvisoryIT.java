package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.DialectAdvisoryContract;

/** The dialect contract's advisory locks, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleDialectAdvisoryIT extends DialectAdvisoryContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
