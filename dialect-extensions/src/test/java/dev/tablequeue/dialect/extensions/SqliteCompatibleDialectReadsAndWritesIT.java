package dev.tablequeue.dialect.extensions;

import dev.tablequeue.test.contract.DialectReadsAndWritesContract;

/** The dialect contract's reads, writes and openings, run on {@link SqliteCompatibleDialect}. */
class SqliteCompatibleDialectReadsAndWritesIT extends DialectReadsAndWritesContract {

    @Override
    protected LiteFork database() {
        return LiteFork.FILE;
    }
}
