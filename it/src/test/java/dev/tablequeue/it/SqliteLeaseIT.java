package dev.tablequeue.it;

import dev.tablequeue.test.contract.LeaseContract;

/** The lease suite on a SQLite file, which has no server sessions to kill. */
class SqliteLeaseIT extends LeaseContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
