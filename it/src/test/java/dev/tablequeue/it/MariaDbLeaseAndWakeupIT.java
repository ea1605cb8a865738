package dev.tablequeue.it;

/** Leases, wake-ups, settlement failures and the connection budget on MariaDB. */
class MariaDbLeaseAndWakeupIT extends LeaseAndWakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
