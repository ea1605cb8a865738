package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectAdvisoryContract;

/**
 * The dialect contract's advisory locks on MariaDB, with the dialect picked from what the
 * driver reports.
 */
class MariaDbDialectAdvisoryIT extends DialectAdvisoryContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
