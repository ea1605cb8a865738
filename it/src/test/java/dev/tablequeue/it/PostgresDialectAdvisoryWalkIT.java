package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectAdvisoryWalkContract;

/** The dialect contract's advisory walks on PostgreSQL. */
class PostgresDialectAdvisoryWalkIT extends DialectAdvisoryWalkContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
