package dev.tablequeue.it;

/** Retention on PostgreSQL. */
class PostgresRetentionIT extends RetentionContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
