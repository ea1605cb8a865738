package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectReadsAndWritesContract;

/** The dialect contract's reads, writes and openings on PostgreSQL. */
class PostgresDialectReadsAndWritesIT extends DialectReadsAndWritesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
