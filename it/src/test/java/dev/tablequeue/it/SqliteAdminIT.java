package dev.tablequeue.it;

/** The queue admin on Sqlite. */
class SqliteAdminIT extends AdminContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
