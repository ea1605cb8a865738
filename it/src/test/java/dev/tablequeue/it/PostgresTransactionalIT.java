package dev.tablequeue.it;

/** The transactional mode suite on PostgreSQL. */
class PostgresTransactionalIT extends TransactionalContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
