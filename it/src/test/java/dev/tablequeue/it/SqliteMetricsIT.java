package dev.tablequeue.it;

/** The Micrometer meters on Sqlite. */
class SqliteMetricsIT extends MetricsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
