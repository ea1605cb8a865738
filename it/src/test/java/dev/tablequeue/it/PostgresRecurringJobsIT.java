package dev.tablequeue.it;

/** Recurring jobs, on PostgreSQL. */
class PostgresRecurringJobsIT extends RecurringJobsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
