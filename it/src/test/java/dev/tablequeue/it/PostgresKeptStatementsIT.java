package dev.tablequeue.it;

/** Prepared statements on PostgreSQL: prepared at each use, pgjdbc keeps the server's side. */
class PostgresKeptStatementsIT extends KeptStatementsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }

    @Override
    protected boolean keeps() {
        return false;
    }
}
