package dev.tablequeue.it;

/** The broker suite on PostgreSQL, in every form. */
class PostgresBrokerIT extends BrokerContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
