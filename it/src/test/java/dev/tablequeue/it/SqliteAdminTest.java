package dev.tablequeue.it;

/** The queue admin on Sqlite. */
class SqliteAdminTest extends AdminContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
