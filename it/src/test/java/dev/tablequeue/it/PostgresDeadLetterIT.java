package dev.tablequeue.it;

import dev.tablequeue.test.contract.DeadLetterContract;

/** The dead-letter suite on PostgreSQL, in every form. */
class PostgresDeadLetterIT extends DeadLetterContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
