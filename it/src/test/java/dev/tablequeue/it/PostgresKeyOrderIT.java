package dev.tablequeue.it;

/** The key order suite on PostgreSQL, in every form. */
class PostgresKeyOrderIT extends KeyOrderContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
