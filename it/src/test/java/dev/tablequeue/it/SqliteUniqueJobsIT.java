package dev.tablequeue.it;

/** Unique jobs, on SQLite. */
class SqliteUniqueJobsIT extends UniqueJobsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
