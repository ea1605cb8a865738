package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectClaimsContract;

/** The dialect contract's claims on PostgreSQL. */
class PostgresDialectClaimsIT extends DialectClaimsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
