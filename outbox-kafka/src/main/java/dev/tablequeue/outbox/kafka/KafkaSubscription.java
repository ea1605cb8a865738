package dev.tablequeue.outbox.kafka;

import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.HandlerRun;
import dev.tablequeue.outbox.Outbox;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.tools.jdbc.JDBCUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One handler on a Kafka topic, in a consumer group: each consumer thread polls its partitions and handles their
 * messages one at a time, in order, each inside the transport's handler middlewares (the outbox's among them).
 *
 * <ul>
 *   <li><b>Dedup</b> ({@link Options#dedup}): a message with an outbox record id opens a transaction on the
 *       service's database, writes the id into the service's {@link HandledTable}, runs the handler (which writes
 *       through {@code delivery.tx()}) and commits both on an acknowledgement; a copy whose id is there already
 *       is acknowledged without its handler. Any other outcome rolls back.
 *   <li><b>Retries without blocking for ever</b>: a retried message (or a handler that throws) is handled again
 *       in place, after a backoff that doubles from {@link Options#backoff}; after {@link Options#attempts}
 *       attempts, or at once on {@link Outcome#deadLetter()}, it goes to the declared dead-letter topic with its
 *       key, payload and headers (and where it came from), and the partition moves on.
 *   <li><b>Offsets after settlement</b>: offsets are committed by the subscription once every message of a
 *       poll is settled (handled, dropped, a duplicate or dead-lettered), never by a timer; a message whose
 *       offset was not committed (a crash, a rebalance) comes again, and the dedup takes it.
 * </ul>
 */
public final class KafkaSubscription<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSubscription.class);
    /** The Kafka header a dead-lettered message carries: where it came from (topic-partition@offset). */
    public static final String DEAD_LETTER_FROM = "tablequeue-dead-letter-from";
    /** The Kafka header a dead-lettered message carries: why (the last outcome or failure). */
    public static final String DEAD_LETTER_REASON = "tablequeue-dead-letter-reason";

    private final KafkaTransport transport;
    private final String name;
    private final String topic;
    private final Map<String, Object> properties;
    private final Class<T> type;
    private final Handler<T> handler;
    private final Options options;
    private final List<KafkaConsumer<String, byte[]>> consumers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final AtomicLong handled = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();

    KafkaSubscription(KafkaTransport transport, String name, String topic, Map<String, Object> properties,
            Class<T> type, Handler<T> handler, Options options) {
        this.transport = transport;
        this.name = Objects.requireNonNull(name, "name");
        this.topic = topic;
        this.properties = new HashMap<>(properties);
        this.type = Objects.requireNonNull(type, "type");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.options = Objects.requireNonNull(options, "options");
        this.properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        this.properties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
    }

    void start() {
        for (int i = 0; i < options.consumers; i++) {
            KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
                    new ByteArrayDeserializer());
            consumer.subscribe(List.of(topic));
            consumers.add(consumer);
            threads.add(Thread.ofPlatform().name("tablequeue-kafka-" + topic + "-" + i).daemon(true)
                    .start(() -> run(consumer)));
        }
    }

    /** How many messages the handler acknowledged or dropped. */
    public long handled() {
        return handled.get();
    }

    /** How many copies the dedup acknowledged without the handler. */
    public long duplicates() {
        return duplicates.get();
    }

    /** How many messages went to the dead-letter topic. */
    public long deadLettered() {
        return deadLettered.get();
    }

    private void run(KafkaConsumer<String, byte[]> consumer) {
        try {
            while (closing.getCount() > 0) {
                ConsumerRecords<String, byte[]> polled = consumer.poll(Duration.ofMillis(500));
                Map<TopicPartition, OffsetAndMetadata> settled = new HashMap<>();
                for (ConsumerRecord<String, byte[]> record : polled) {
                    if (!settle(record)) {
                        break;
                    }
                    settled.put(new TopicPartition(record.topic(), record.partition()),
                            new OffsetAndMetadata(record.offset() + 1));
                }
                if (!settled.isEmpty()) {
                    commit(consumer, settled);
                }
                if (closing.getCount() == 0) {
                    return;
                }
            }
        } catch (WakeupException e) {
            // close() woke the consumer
        } catch (RuntimeException e) {
            LOG.error("the Kafka subscription of {} (topic \"{}\") stopped: {}", name, topic, e.toString(), e);
        } finally {
            consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    private void commit(KafkaConsumer<String, byte[]> consumer, Map<TopicPartition, OffsetAndMetadata> offsets) {
        try {
            consumer.commitSync(offsets, Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            // the messages come again (to this consumer or, after a rebalance, another): the dedup takes them
            LOG.warn("the offsets {} of {} were not committed; their messages come again: {}", offsets, name,
                    e.toString());
        }
    }

    /** Settles one message, retrying it in place; false where the subscription closed before it was settled. */
    private boolean settle(ConsumerRecord<String, byte[]> record) {
        Duration backoff = options.backoff;
        String reason = "";
        for (int attempt = 1; ; attempt++) {
            Outcome outcome;
            try {
                outcome = attempt(record, attempt);
            } catch (SQLException | RuntimeException e) {
                outcome = Outcome.retry();
                reason = e.toString();
                LOG.warn("message {} of {} could not be handled (attempt {}): {}", position(record), name, attempt,
                        e.toString());
            }
            switch (outcome) {
                case Outcome.Ack a -> {
                    return true;
                }
                case Outcome.Drop d -> {
                    return true;
                }
                case Outcome.DeadLetter d -> {
                    return deadLetter(record, "the handler gave it up (attempt " + attempt + ")");
                }
                case Outcome.Retry r -> reason = reason.isEmpty() ? "retried" : reason;
                case Outcome.RetryAfter r -> {
                    reason = "retried after " + r.delay();
                    backoff = r.delay().compareTo(backoff) > 0 ? r.delay() : backoff;
                }
            }
            if (attempt >= options.attempts) {
                return deadLetter(record, reason + " " + attempt + " times");
            }
            if (!pause(backoff)) {
                return false;
            }
            backoff = backoff.multipliedBy(2).compareTo(options.maxBackoff) > 0 ? options.maxBackoff
                    : backoff.multipliedBy(2);
        }
    }

    /**
     * One attempt: in the dedup's transaction where the subscription has one (a duplicate is acknowledged there
     * without the handler), else the handler alone.
     */
    private Outcome attempt(ConsumerRecord<String, byte[]> record, int attempt) throws SQLException {
        String id = KafkaDelivery.headersOf(record).get(Outbox.ID_HEADER);
        if (options.dataSource == null) {
            return counted(run(new KafkaDelivery(record, attempt, null, null), record));
        }
        DataSource ds = options.dataSource;
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            boolean done = false;
            try {
                if (id != null && !options.handled.firstCopy(c, record.topic(), id)) {
                    c.rollback();
                    done = true;
                    duplicates.incrementAndGet();
                    LOG.debug("message {} of {} is a copy of outbox record {} handled before", position(record), name,
                            id);
                    return Outcome.ack();
                }
                DSLContext tx = DSL.using(c, JDBCUtils.dialect(c));
                Outcome outcome = run(new KafkaDelivery(record, attempt, DSL.using(ds, tx.dialect()), tx), record);
                if (outcome instanceof Outcome.Ack || outcome instanceof Outcome.Drop) {
                    c.commit();
                } else {
                    c.rollback();
                }
                done = true;
                return counted(outcome);
            } finally {
                if (!done) {
                    c.rollback();
                }
                c.setAutoCommit(true);
            }
        }
    }

    private Outcome counted(Outcome outcome) {
        if (outcome instanceof Outcome.Ack || outcome instanceof Outcome.Drop) {
            handled.incrementAndGet();
        }
        return outcome;
    }

    private Outcome run(KafkaDelivery delivery, ConsumerRecord<String, byte[]> record) {
        return HandlerRun.outcome(transport.codec(), transport.middlewares(), name, delivery,
                record.value() == null ? new byte[0] : record.value(), type, handler);
    }

    /**
     * Sends the message to the dead-letter topic, trying again (after the longest backoff) for as long as the
     * broker does not take it: a message is dead-lettered or stays, never skipped.
     */
    private boolean deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        ProducerRecord<String, byte[]> dead = new ProducerRecord<>(options.deadLetterTopic, null, record.key(),
                record.value(), record.headers());
        dead.headers().add(new RecordHeader(DEAD_LETTER_FROM, position(record).getBytes(StandardCharsets.UTF_8)));
        dead.headers().add(new RecordHeader(DEAD_LETTER_REASON, reason.getBytes(StandardCharsets.UTF_8)));
        while (true) {
            try {
                transport.forward(dead);
                deadLettered.incrementAndGet();
                LOG.warn("message {} of {} went to dead-letter topic \"{}\": {}", position(record), name,
                        options.deadLetterTopic, reason);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (Exception e) {
                LOG.warn("message {} of {} could not go to dead-letter topic \"{}\"; trying again: {}", position(record),
                        name, options.deadLetterTopic, e.toString());
                if (!pause(options.maxBackoff)) {
                    return false;
                }
            }
        }
    }

    /** Waits {@code d}, or until the subscription closes: false then. */
    private boolean pause(Duration d) {
        try {
            return !closing.await(d.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String position(ConsumerRecord<?, ?> r) {
        return r.topic() + "-" + r.partition() + "@" + r.offset();
    }

    /** Stops polling; a message in a handler finishes first, and its offset is committed where it settled. */
    @Override
    public void close() {
        closing.countDown();
        consumers.forEach(KafkaConsumer::wakeup);
        for (Thread t : threads) {
            try {
                t.join(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** What a subscription does with failures and copies: see {@link KafkaSubscription}. */
    public static final class Options {
        private final String deadLetterTopic;
        private DataSource dataSource;
        private HandledTable handled;
        private int attempts = 5;
        private Duration backoff = Duration.ofMillis(200);
        private Duration maxBackoff = Duration.ofSeconds(10);
        private int consumers = 1;

        private Options(String deadLetterTopic) {
            this.deadLetterTopic = Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
        }

        /**
         * Options whose messages that keep failing go to {@code deadLetterTopic} (which the service creates, as
         * it creates its topics): declared here, so no message blocks its partition for ever.
         */
        public static Options deadLetterTo(String deadLetterTopic) {
            return new Options(deadLetterTopic);
        }

        /**
         * Dedups by outbox record id in {@code table} on {@code dataSource}, the service's own database, in the
         * handler's transaction ({@code delivery.tx()}).
         */
        public Options dedup(DataSource dataSource, HandledTable table) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            this.handled = Objects.requireNonNull(table, "table");
            return this;
        }

        /** How many attempts in place before the dead letter (default 5). */
        public Options attempts(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("attempts must be at least 1, was " + n);
            }
            this.attempts = n;
            return this;
        }

        /** The wait before the second attempt, doubled for each after it up to {@code max} (default 200 ms, 10 s). */
        public Options backoff(Duration first, Duration max) {
            if (first.isNegative() || max.compareTo(first) < 0) {
                throw new IllegalArgumentException("backoff needs 0 <= first <= max, was " + first + ", " + max);
            }
            this.backoff = first;
            this.maxBackoff = max;
            return this;
        }

        /** How many consumers of the group this subscription runs, each on a thread of its own (default 1). */
        public Options consumers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("consumers must be at least 1, was " + n);
            }
            this.consumers = n;
            return this;
        }
    }
}
