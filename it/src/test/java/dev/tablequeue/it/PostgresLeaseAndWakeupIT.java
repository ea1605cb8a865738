package dev.tablequeue.it;

/** Leases, wake-ups, settlement failures and the connection budget on PostgreSQL. */
class PostgresLeaseAndWakeupIT extends LeaseAndWakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
