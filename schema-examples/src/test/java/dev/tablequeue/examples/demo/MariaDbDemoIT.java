package dev.tablequeue.examples.demo;

import dev.tablequeue.test.Engine;

/** The demo on a MariaDB database of the test's own. */
class MariaDbDemoIT extends DemoContract {

    @Override
    protected Engine engine() {
        return Engine.MARIADB;
    }
}
