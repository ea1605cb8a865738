package dev.tablequeue.it;

/** The Micrometer meters on MariaDb. */
class MariaDbMetricsIT extends MetricsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
