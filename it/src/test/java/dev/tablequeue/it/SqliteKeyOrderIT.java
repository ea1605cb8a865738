package dev.tablequeue.it;

/** The key order suite on SQLite, in the lease and advisory forms. */
class SqliteKeyOrderIT extends KeyOrderContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
