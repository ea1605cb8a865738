package dev.tablequeue.it;

/** The Micrometer meters on Postgres. */
class PostgresMetricsIT extends MetricsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
