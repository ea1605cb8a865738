package dev.tablequeue.it;

/** Unique jobs, on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlUniqueJobsIT extends UniqueJobsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
