package dev.tablequeue.it;

/** Unique jobs, on MariaDB. */
class MariaDbUniqueJobsIT extends UniqueJobsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
