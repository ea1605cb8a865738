package dev.tablequeue.it;

/** Where the handlers run, on Sqlite. */
class SqliteHandlerThreadsIT extends HandlerThreadsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
