package dev.tablequeue.it;

/** Pause and resume on Sqlite. */
class SqlitePauseTest extends PauseContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
