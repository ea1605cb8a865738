package dev.tablequeue.it;

/** Kept prepared statements on SQLite. */
class SqliteKeptStatementsIT extends KeptStatementsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }

    @Override
    protected boolean keeps() {
        return true;
    }
}
