package dev.tablequeue.it;

/** The queue admin on Postgres. */
class PostgresAdminIT extends AdminContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
