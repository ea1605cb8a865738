package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectAdvisoryContract;

/** The dialect contract's advisory locks on PostgreSQL. */
class PostgresDialectAdvisoryIT extends DialectAdvisoryContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
