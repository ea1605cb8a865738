package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectSettlementsContract;

/** The dialect contract's settlements on PostgreSQL. */
class PostgresDialectSettlementsIT extends DialectSettlementsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
