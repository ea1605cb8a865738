package dev.tablequeue.it;

import dev.tablequeue.test.contract.DeadLetterContract;

/** The dead-letter suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlDeadLetterIT extends DeadLetterContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
