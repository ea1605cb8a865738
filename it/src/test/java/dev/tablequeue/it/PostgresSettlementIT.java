package dev.tablequeue.it;

import dev.tablequeue.test.contract.SettlementContract;

/** The settlement suite (published in the kit) on PostgreSQL. */
class PostgresSettlementIT extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
