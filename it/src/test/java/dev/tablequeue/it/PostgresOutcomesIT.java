package dev.tablequeue.it;

import dev.tablequeue.test.contract.OutcomesContract;

/** The outcomes suite on PostgreSQL, in every form. */
class PostgresOutcomesIT extends OutcomesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
