package dev.tablequeue.it;

/** The command line on Sqlite. */
class SqliteCliIT extends CliContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
