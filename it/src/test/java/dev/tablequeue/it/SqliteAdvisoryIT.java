package dev.tablequeue.it;

/** The advisory suite on a SQLite file. */
class SqliteAdvisoryIT extends AdvisoryContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
