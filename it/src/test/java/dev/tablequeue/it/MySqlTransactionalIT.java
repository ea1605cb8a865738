package dev.tablequeue.it;

/** The transactional mode suite on MySQL 8 (where TABLEQUEUE_MYSQL_URL names a server). */
class MySqlTransactionalIT extends TransactionalContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
