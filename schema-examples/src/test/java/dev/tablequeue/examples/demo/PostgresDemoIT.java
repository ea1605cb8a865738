package dev.tablequeue.examples.demo;

import dev.tablequeue.test.Engine;

/** The demo on a PostgreSQL database of the test's own. */
class PostgresDemoIT extends DemoContract {

    @Override
    protected Engine engine() {
        return Engine.POSTGRES;
    }
}
