package dev.tablequeue.outbox.kafka;

/** The Kafka consumer's dedup on SQLite. */
class SqliteKafkaDedupIT extends KafkaDedupContract {

    @Override
    protected KafkaDatabase database() {
        return KafkaDatabase.SQLITE;
    }
}
