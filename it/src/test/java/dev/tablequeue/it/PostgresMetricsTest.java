package dev.tablequeue.it;

/** The Micrometer meters on Postgres. */
class PostgresMetricsTest extends MetricsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
