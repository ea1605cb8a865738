package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectClaimsContract;

/**
 * The dialect contract's claims on MariaDB, with the dialect picked from what the driver
 * reports.
 */
class MariaDbDialectClaimsIT extends DialectClaimsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
