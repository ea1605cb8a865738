package dev.tablequeue.outbox.kafka;

/** The kill drill on Kafka, the service's records on SQLite. */
class SqliteKafkaKillDrillIT extends KafkaKillDrillContract {

    @Override
    protected KafkaDatabase database() {
        return KafkaDatabase.SQLITE;
    }
}
