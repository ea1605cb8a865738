package dev.tablequeue.it;

/** The Micrometer meters on Sqlite. */
class SqliteMetricsTest extends MetricsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
