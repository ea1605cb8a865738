package dev.tablequeue.outbox.kafka;

/** The kill drill on Kafka, the service's records on PostgreSQL. */
class PostgresKafkaKillDrillIT extends KafkaKillDrillContract {

    @Override
    protected KafkaDatabase database() {
        return KafkaDatabase.POSTGRES;
    }
}
