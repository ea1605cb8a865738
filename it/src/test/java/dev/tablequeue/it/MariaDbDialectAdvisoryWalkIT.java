package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectAdvisoryWalkContract;

/**
 * The dialect contract's advisory walks on MariaDB, with the dialect picked from what the
 * driver reports.
 */
class MariaDbDialectAdvisoryWalkIT extends DialectAdvisoryWalkContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
