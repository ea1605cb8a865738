package dev.tablequeue.it;

import dev.tablequeue.test.contract.LeaseContract;

/** The lease suite on PostgreSQL. */
class PostgresLeaseIT extends LeaseContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
