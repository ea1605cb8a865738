package dev.tablequeue.examples.demo;

import dev.tablequeue.testkit.LiveDatabase;

/** The demo on a PostgreSQL database of the test's own. */
class PostgresDemoIT extends DemoContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.POSTGRES;
    }
}
