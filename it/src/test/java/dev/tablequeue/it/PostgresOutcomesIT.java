package dev.tablequeue.it;

/** The outcomes suite on PostgreSQL, in every form. */
class PostgresOutcomesIT extends OutcomesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
