package dev.tablequeue.outbox;

/** The kill drill on RabbitMQ, the service's records on PostgreSQL. */
class PostgresRabbitKillDrillIT extends RabbitKillDrillContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.POSTGRES;
    }
}
