package dev.tablequeue.outbox.kafka;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.outbox.Outbox;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jooq.DSLContext;

/**
 * A Kafka message in a handler's hands: its headers as text, its key as the partition key, the outbox record id
 * as its id (its topic, partition and offset where it carries none), the attempt in place, and the handler's
 * transaction where the subscription dedups in a table of the service's own.
 */
final class KafkaDelivery implements Delivery {
    private final ConsumerRecord<String, byte[]> record;
    private final Map<String, String> headers;
    private final int attempt;
    private final DSLContext db;
    private final DSLContext tx;

    KafkaDelivery(ConsumerRecord<String, byte[]> record, int attempt, DSLContext db, DSLContext tx) {
        this.record = record;
        Map<String, String> h = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            h.put(header.key(), header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8));
        }
        this.headers = java.util.Collections.unmodifiableMap(h);
        this.attempt = attempt;
        this.db = db;
        this.tx = tx;
    }

    static Map<String, String> headersOf(ConsumerRecord<String, byte[]> record) {
        return new KafkaDelivery(record, 1, null, null).headers;
    }

    /** Where the message sits: topic-partition@offset. */
    String position() {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }

    /** The outbox record id the message carries, or its position where it carries none. */
    @Override
    public Object id() {
        String id = headers.get(Outbox.ID_HEADER);
        return id != null ? id : position();
    }

    @Override
    public String queue() {
        return record.topic();
    }

    /** The attempt in place, from 1: a message retried without leaving its partition. */
    @Override
    public OptionalInt attempt() {
        return OptionalInt.of(attempt);
    }

    @Override
    public Map<String, String> headers() {
        return headers;
    }

    /** The message's Kafka key. */
    @Override
    public Object partitionKey() {
        return record.key();
    }

    @Override
    public DSLContext db() {
        if (db == null) {
            throw new UnsupportedOperationException("a delivery of Kafka topic " + record.topic() + " has a database"
                    + " only where its subscription dedups in a table (KafkaSubscription.Options.dedup)");
        }
        return db;
    }

    /** The handler's transaction: the dedup row commits with what the handler writes through it. */
    @Override
    public DSLContext tx() {
        if (tx == null) {
            return Delivery.super.tx();
        }
        return tx;
    }

    @Override
    public String toString() {
        return "message " + position() + (headers.containsKey(Outbox.ID_HEADER)
                ? " (outbox record " + headers.get(Outbox.ID_HEADER) + ")" : "");
    }
}
