package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.DialectAdvisoryWalkContract;

/** The dialect contract's advisory walks, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleDialectAdvisoryWalkIT extends DialectAdvisoryWalkContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
