package dev.tablequeue.it;

/** The command line on Sqlite. */
class SqliteCliTest extends CliContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
