package dev.tablequeue.it;

/** The command line on Postgres. */
class PostgresCliIT extends CliContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
