package dev.tablequeue.it;

/** The lease and wake-up suite on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlLeaseAndWakeupIT extends LeaseAndWakeupContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
