package dev.tablequeue.it;

/** Pause and resume on Postgres. */
class PostgresPauseIT extends PauseContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
