package dev.tablequeue.it;

/** The broker suite on PostgreSQL, in every form. */
class PostgresBrokerTest extends BrokerContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
