package dev.tablequeue.it;

/** The queue admin on Postgres. */
class PostgresAdminTest extends AdminContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
