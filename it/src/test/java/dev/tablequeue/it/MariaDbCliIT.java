package dev.tablequeue.it;

/** The command line on MariaDb. */
class MariaDbCliIT extends CliContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
