package dev.tablequeue.it;

/** Unique jobs, on PostgreSQL. */
class PostgresUniqueJobsIT extends UniqueJobsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
