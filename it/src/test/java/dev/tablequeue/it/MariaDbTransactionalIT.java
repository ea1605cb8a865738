package dev.tablequeue.it;

/** The transactional mode suite on MariaDB. */
class MariaDbTransactionalIT extends TransactionalContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
