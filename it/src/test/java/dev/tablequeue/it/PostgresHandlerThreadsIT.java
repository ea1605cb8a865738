package dev.tablequeue.it;

/** Where the handlers run, on Postgres. */
class PostgresHandlerThreadsIT extends HandlerThreadsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
