package dev.tablequeue.examples;

/** The example bindings on PostgreSQL. */
class PostgresExampleQueuesTest extends ExampleQueuesContract {

    @Override
    protected Class<?> queues() {
        return dev.tablequeue.examples.postgres.ExampleQueues.class;
    }
}
