package dev.tablequeue.it;

/** The transactional mode suite on SQLite. */
class SqliteTransactionalIT extends TransactionalContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
