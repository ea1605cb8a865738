package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectReadsAndWritesContract;

/**
 * The dialect contract's reads, writes and openings on a SQLite file: times as SqliteTime
 * text.
 */
class SqliteDialectReadsAndWritesIT extends DialectReadsAndWritesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
