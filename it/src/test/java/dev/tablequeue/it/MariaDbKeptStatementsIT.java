package dev.tablequeue.it;

/** Kept prepared statements on MariaDB. */
class MariaDbKeptStatementsIT extends KeptStatementsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }

    @Override
    protected boolean keeps() {
        return false;
    }
}
