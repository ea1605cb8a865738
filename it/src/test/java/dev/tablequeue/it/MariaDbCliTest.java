package dev.tablequeue.it;

/** The command line on MariaDb. */
class MariaDbCliTest extends CliContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
