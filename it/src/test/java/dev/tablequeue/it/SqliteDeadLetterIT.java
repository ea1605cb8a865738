package dev.tablequeue.it;

import dev.tablequeue.test.contract.DeadLetterContract;

/** The dead-letter suite on SQLite, in the lease and advisory forms. */
class SqliteDeadLetterIT extends DeadLetterContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
