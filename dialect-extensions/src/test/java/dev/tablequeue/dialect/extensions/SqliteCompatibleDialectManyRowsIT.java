package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.DialectManyRowsContract;

/** The dialect contract's settlements of many rows in one statement, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleDialectManyRowsIT extends DialectManyRowsContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
