package dev.tablequeue.outbox.kafka;

/** The kill drill on Kafka, the service's records on MariaDB. */
class MariaDbKafkaKillDrillIT extends KafkaKillDrillContract {

    @Override
    protected KafkaDatabase database() {
        return KafkaDatabase.MARIADB;
    }
}
