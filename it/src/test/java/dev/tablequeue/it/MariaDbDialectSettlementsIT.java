package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectSettlementsContract;

/**
 * The dialect contract's settlements on MariaDB, with the dialect picked from what the
 * driver reports.
 */
class MariaDbDialectSettlementsIT extends DialectSettlementsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
