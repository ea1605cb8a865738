package dev.tablequeue.it;

/** Pause and resume on MariaDb. */
class MariaDbPauseIT extends PauseContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
