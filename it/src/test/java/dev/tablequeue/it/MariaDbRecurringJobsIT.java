package dev.tablequeue.it;

/** Recurring jobs, on MariaDB. */
class MariaDbRecurringJobsIT extends RecurringJobsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
