package dev.tablequeue.it;

/** Retention on SQLite. */
class SqliteRetentionIT extends RetentionContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
