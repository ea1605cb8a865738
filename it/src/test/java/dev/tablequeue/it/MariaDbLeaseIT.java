package dev.tablequeue.it;

import dev.tablequeue.test.contract.LeaseContract;

/** The lease suite on MariaDB. */
class MariaDbLeaseIT extends LeaseContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
