package dev.tablequeue.examples;

/** The example bindings on SQLite. */
class SqliteExampleQueuesTest extends ExampleQueuesContract {

    @Override
    protected Class<?> queues() {
        return dev.tablequeue.examples.sqlite.ExampleQueues.class;
    }
}
