package dev.tablequeue.it;

/** Recurring jobs, on SQLite. */
class SqliteRecurringJobsIT extends RecurringJobsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
