package dev.tablequeue.it;

/** Leases, wake-ups, settlement failures and the connection budget on a SQLite file. */
class SqliteLeaseAndWakeupIT extends LeaseAndWakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
