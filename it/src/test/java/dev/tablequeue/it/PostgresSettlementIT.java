package dev.tablequeue.it;

/** The settlement suite on PostgreSQL. */
class PostgresSettlementIT extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
