package dev.tablequeue.it;

/** The settlement openings suite on PostgreSQL. */
class PostgresSettlementOpeningIT extends SettlementOpeningContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
