package dev.tablequeue.it;

/** The settlement suite on PostgreSQL. */
class PostgresSettlementTest extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
