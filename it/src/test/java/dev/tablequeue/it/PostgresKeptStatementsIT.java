package dev.tablequeue.it;

/** Kept prepared statements on PostgreSQL. */
class PostgresKeptStatementsIT extends KeptStatementsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }

    @Override
    protected boolean keeps() {
        return true;
    }
}
