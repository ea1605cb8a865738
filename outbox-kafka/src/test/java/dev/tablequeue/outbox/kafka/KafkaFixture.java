package dev.tablequeue.outbox.kafka;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.test.FreshDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * What the Kafka suites share: one broker for the whole run (started by the first class, stopped after the
 * last), a database per class (PostgreSQL, unless the class names another in {@link #database()}), fresh record
 * tables and topics per test, and the outboxes and transports a test opens (closed after it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(KafkaFixture.SharedBroker.class)
abstract class KafkaFixture {
    static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final AtomicInteger NAMES = new AtomicInteger();

    static KafkaBroker broker;
    FreshDatabase db;
    HikariDataSource pool;
    final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

    /** Starts the broker once per run, in JUnit's root store, which closes it when the run ends. */
    static final class SharedBroker implements org.junit.jupiter.api.extension.BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            broker = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                    .computeIfAbsent(KafkaBroker.class, k -> KafkaBroker.start(), KafkaBroker.class);
        }
    }

    /** The database the class runs on. */
    protected KafkaDatabase database() {
        return KafkaDatabase.POSTGRES;
    }

    @BeforeAll
    void openDatabase() {
        db = FreshDatabase.create(database().engine(), "kafka_" + getClass().getSimpleName());
        pool = database() == KafkaDatabase.SQLITE ? walPool(db) : db.pool(8);
    }

    /** A pool on a SQLite file in WAL mode, as a service runs SQLite (readers do not wait for a writer). */
    private static HikariDataSource walPool(FreshDatabase db) {
        db.execute("PRAGMA journal_mode = WAL");
        com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
        config.setJdbcUrl(db.url());
        config.setMaximumPoolSize(8);
        config.setMinimumIdle(0);
        config.addDataSourceProperty("busy_timeout", "10000");
        config.addDataSourceProperty("synchronous", "NORMAL");
        return new HikariDataSource(config);
    }

    @AfterEach
    void closeOpened() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
        opened.clear();
    }

    @AfterAll
    void closeDatabase() {
        if (pool != null) {
            pool.close();
        }
        if (db != null) {
            db.close();
        }
    }

    /** A name (and topic) no other test uses, with {@code partitions} partitions. */
    String topic(String what, int partitions) {
        String name = what + "_" + NAMES.incrementAndGet() + "_" + UUID.randomUUID().toString().substring(0, 6);
        broker.createTopic(name, partitions);
        return name;
    }

    /** A fresh record table. */
    Records records() {
        Records t = new Records("outbox_" + NAMES.incrementAndGet(), database());
        db.execute(t.ddl());
        return t;
    }

    <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** A transport on the test broker with the outbox's middlewares, closed after the test. */
    KafkaTransport transport(Outbox outbox) {
        return open(KafkaTransport.builder(broker.bootstrap()).sendTimeout(Duration.ofSeconds(10))
                .publishMiddleware(outbox.publishMiddleware()).handlerMiddleware(outbox.handlerMiddleware())
                .build());
    }

    /** A jOOQ context whose transactions carry the outbox's listener (a send follows the commit). */
    DSLContext jooq(Outbox outbox) {
        return DSL.using(new DefaultConfiguration().set(pool).set(database().sqlDialect())
                .set(outbox.transactionListener()));
    }

    /** A jOOQ context on the pool, for the test's own statements. */
    DSLContext dsl() {
        return DSL.using(pool, database().sqlDialect());
    }

    /** A fresh dedup table ({@link HandledTable}'s columns); its name. */
    String handledTable() {
        String name = "handled_" + NAMES.incrementAndGet();
        db.execute(database().handled(name));
        return name;
    }

    /** How many messages {@code topic} holds: the sum of its partitions' end offsets. */
    static int messagesOn(String topic) throws Exception {
        try (Admin admin = broker.admin()) {
            var partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions();
            Map<TopicPartition, OffsetSpec> latest =
                    new HashMap<>();
            for (var p : partitions) {
                latest.put(new TopicPartition(topic, p.partition()),
                        OffsetSpec.latest());
            }
            long sum = 0;
            for (var e : admin.listOffsets(latest).all().get().values()) {
                sum += e.offset();
            }
            return Math.toIntExact(sum);
        }
    }

    /** A message as a plain consumer reads it off the topic. */
    record Read(String key, String value, Map<String, String> headers, int partition, long offset) {}

    /** Reads {@code topic} from its start until {@code count} messages came or the patience ran out. */
    static List<Read> readAll(String topic, int count, Duration patience) {
        List<Read> read = new ArrayList<>();
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (var consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long until = System.nanoTime() + patience.toNanos();
            while (read.size() < count && System.nanoTime() < until) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    Map<String, String> headers = new HashMap<>();
                    for (Header h : r.headers()) {
                        headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
                    }
                    read.add(new Read(r.key(), new String(r.value(), StandardCharsets.UTF_8), headers,
                            r.partition(), r.offset()));
                }
            }
        }
        return read;
    }

    /** What group {@code group} has still to commit on {@code topic}: -1 before its first commit. */
    static long committedLag(String topic, String group) throws Exception {
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> committed = admin
                    .listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            var ends = admin.listOffsets(committed.keySet().stream().collect(java.util.stream.Collectors.toMap(
                    tp -> tp, tp -> OffsetSpec.latest()))).all().get();
            long lag = 0;
            for (var e : committed.entrySet()) {
                lag += ends.get(e.getKey()).offset() - (e.getValue() == null ? 0 : e.getValue().offset());
            }
            return committed.isEmpty() ? -1 : lag;
        }
    }

    /** Prints a drill's line of figures and appends it to {@code target/drill-figures.txt}. */
    static void report(String line) {
        System.out.println(line);
        Path figures = Path.of("target", "drill-figures.txt");
        try {
            Files.writeString(figures, line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + figures.toAbsolutePath(), e);
        }
    }
}
