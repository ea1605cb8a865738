package dev.tablequeue.it;

import dev.tablequeue.test.contract.SettlementContract;

/** The settlement suite on PostgreSQL. */
class PostgresSettlementIT extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
