package dev.tablequeue.it;

/** Recurring jobs, on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlRecurringJobsIT extends RecurringJobsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
