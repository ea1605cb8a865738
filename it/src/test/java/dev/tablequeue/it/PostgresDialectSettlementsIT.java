package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectSettlementsContract;

/** The dialect contract's settlements (published in the kit) on PostgreSQL. */
class PostgresDialectSettlementsIT extends DialectSettlementsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
