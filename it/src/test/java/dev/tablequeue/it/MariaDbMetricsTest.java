package dev.tablequeue.it;

/** The Micrometer meters on MariaDb. */
class MariaDbMetricsTest extends MetricsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
