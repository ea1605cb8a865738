package dev.tablequeue.outbox.kafka;

/** The Kafka consumer's dedup on MariaDB. */
class MariaDbKafkaDedupIT extends KafkaDedupContract {

    @Override
    protected KafkaDatabase database() {
        return KafkaDatabase.MARIADB;
    }
}
