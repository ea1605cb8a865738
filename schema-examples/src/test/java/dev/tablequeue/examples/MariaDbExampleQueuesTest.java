package dev.tablequeue.examples;

/** The example bindings on MariaDB. */
class MariaDbExampleQueuesTest extends ExampleQueuesContract {

    @Override
    protected Class<?> queues() {
        return dev.tablequeue.examples.mariadb.ExampleQueues.class;
    }
}
