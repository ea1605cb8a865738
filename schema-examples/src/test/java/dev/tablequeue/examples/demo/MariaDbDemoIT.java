package dev.tablequeue.examples.demo;

import dev.tablequeue.testkit.LiveDatabase;

/** The demo on a MariaDB database of the test's own. */
class MariaDbDemoIT extends DemoContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.MARIADB;
    }
}
