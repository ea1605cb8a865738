package dev.tablequeue.outbox.kafka;

/** The Kafka consumer's dedup on PostgreSQL. */
class PostgresKafkaDedupIT extends KafkaDedupContract {

    @Override
    protected KafkaDatabase database() {
        return KafkaDatabase.POSTGRES;
    }
}
