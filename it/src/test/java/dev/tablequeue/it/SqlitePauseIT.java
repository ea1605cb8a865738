package dev.tablequeue.it;

/** Pause and resume on Sqlite. */
class SqlitePauseIT extends PauseContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
