package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.DialectClaimsContract;

/** The dialect contract's claims, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleDialectClaimsIT extends DialectClaimsContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
