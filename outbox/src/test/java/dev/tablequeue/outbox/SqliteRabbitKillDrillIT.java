package dev.tablequeue.outbox;

/** The kill drill on RabbitMQ, the service's records on SQLite. */
class SqliteRabbitKillDrillIT extends RabbitKillDrillContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.SQLITE;
    }
}
