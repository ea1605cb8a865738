package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectReadsAndWritesContract;

/**
 * The dialect contract's reads, writes and openings on MariaDB, with the dialect picked from
 * what the driver reports.
 */
class MariaDbDialectReadsAndWritesIT extends DialectReadsAndWritesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
