package dev.tablequeue.outbox;

/** The kill drill on RabbitMQ, the service's records on MariaDB. */
class MariaDbRabbitKillDrillIT extends RabbitKillDrillContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.MARIADB;
    }
}
