package dev.tablequeue.outbox.kafka;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.broker.Codec;
import dev.tablequeue.outbox.Envelope;
import dev.tablequeue.outbox.MessagePublisher;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.OutboxHeaders;
import dev.tablequeue.outbox.TransportBuilder;
import dev.tablequeue.transport.Middlewares;
import dev.tablequeue.transport.OutgoingMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jooq.DSLContext;

/**
 * A transport on Kafka, with the same middlewares as every transport. A publish goes to the topic of the
 * message's name (the name itself, unless {@link Builder#topics} maps it), keyed by the message's
 * {@link #KEY_HEADER} header (so the messages of one key keep their order on one partition), with every header
 * (the outbox's record id among them) as a Kafka header, on an idempotent producer with {@code acks=all}: it
 * returns once every in-sync replica has the message, and throws where the broker refused it or did not
 * acknowledge it within {@link Builder#sendTimeout}. That return is the broker's confirmation the outbox marks
 * a record processed on, where the record's binding is done on confirmation (the default on this transport).
 *
 * <p>The consuming side is {@link #subscribe}: a consumer group that runs handlers with the transport's handler
 * middlewares, dedups by record id in a table of the service's own, retries in place with a backoff and then
 * dead-letters, and commits offsets after settlement.
 *
 */
public final class KafkaTransport implements MessagePublisher, AutoCloseable {
    /** The header whose value is the message's Kafka key; kept in the outbox record, so a resend has it too. */
    public static final String KEY_HEADER = OutboxHeaders.KEY;
    /** The Kafka header carrying the name a message was published under (where its topic is another name). */
    public static final String NAME_HEADER = "tablequeue-name";

    private final String bootstrap;
    private final Codec codec;
    private final Middlewares middlewares;
    private final Function<String, String> topics;
    private final Duration sendTimeout;
    private final Map<String, Object> consumerProperties;
    private final KafkaProducer<String, byte[]> producer;
    private final List<KafkaSubscription<?>> subscriptions = new ArrayList<>();

    private KafkaTransport(Builder b) {
        this.bootstrap = b.bootstrap;
        this.codec = b.codecSetting();
        this.middlewares = b.middlewares();
        this.topics = b.topics;
        this.sendTimeout = b.sendTimeout;
        this.consumerProperties = Map.copyOf(b.consumer);
        Map<String, Object> p = new HashMap<>(b.producer);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // the guarantees this transport stands on; not the service's to turn off
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
        long timeout = sendTimeout.toMillis();
        p.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout, 30_000));
        p.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) timeout);
        p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout);
        try {
            this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        } catch (RuntimeException e) {
            throw new TableQueueException("cannot create a Kafka producer for " + bootstrap + ": " + e.getMessage(), e);
        }
    }

    /** Starts a transport on the Kafka cluster at {@code bootstrapServers} ({@code host:port,...}). */
    public static Builder builder(String bootstrapServers) {
        return new Builder(bootstrapServers);
    }

    /** The topic messages of {@code name} go to. */
    public String topic(String name) {
        return topics.apply(name);
    }

    @Override
    public PublishResult publish(DSLContext ctx, String name, Object payload, Map<String, String> headers) {
        Envelope message = new Envelope(name, payload, headers, codec, ctx, true);
        try {
            middlewares.publish(message, this::produce);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TableQueueException("publish of " + name + " to Kafka failed: " + e.getMessage(), e);
        }
        return message.result();
    }

    /**
     * Publishes {@code payload} under {@code name} with {@code key} as its Kafka key (in {@link #KEY_HEADER}), for
     * the transaction {@code ctx} (null: none).
     */
    public PublishResult publishKeyed(DSLContext ctx, String name, String key, Object payload) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(KEY_HEADER, Objects.requireNonNull(key, "key"));
        return publish(ctx, name, payload, headers);
    }

    /** Sends one message and waits for the broker's acknowledgement (acks=all). */
    private void produce(OutgoingMessage m) throws IOException, InterruptedException {
        String topic = topic(m.name());
        Map<String, String> headers = m.headers();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, null, headers.get(KEY_HEADER),
                m.payload());
        headers.forEach((k, v) -> record.headers().add(new RecordHeader(k, v.getBytes(StandardCharsets.UTF_8))));
        if (!topic.equals(m.name())) {
            record.headers().add(new RecordHeader(NAME_HEADER, m.name().getBytes(StandardCharsets.UTF_8)));
        }
        try {
            producer.send(record).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IOException("Kafka did not take " + m.name() + " (topic \"" + topic + "\"): " + cause, cause);
        } catch (TimeoutException e) {
            throw new IOException("Kafka did not acknowledge " + m.name() + " (topic \"" + topic + "\") within "
                    + sendTimeout + "; it may still arrive, and the outbox sends it again", e);
        } catch (RuntimeException e) {
            // the producer refuses at send time (a topic it cannot learn of within max.block.ms, a closed producer)
            throw new IOException("Kafka did not take " + m.name() + " (topic \"" + topic + "\"): " + e, e);
        }
    }

    /**
     * Subscribes {@code handler} to the topic of {@code name} in consumer group {@code group}: see
     * {@link KafkaSubscription} for what it runs, dedups and commits. The payload is decoded into a {@code type}
     * ({@code byte[]} takes it as it is).
     */
    public <T> KafkaSubscription<T> subscribe(String name, String group, Class<T> type,
            dev.tablequeue.broker.Handler<T> handler, KafkaSubscription.Options options) {
        Map<String, Object> p = new HashMap<>(consumerProperties);
        p.put(org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_ID_CONFIG, Objects.requireNonNull(group, "group"));
        KafkaSubscription<T> s = new KafkaSubscription<>(this, name, topic(name), p, type, handler, options);
        synchronized (subscriptions) {
            subscriptions.add(s);
        }
        s.start();
        return s;
    }

    Codec codec() {
        return codec;
    }

    Middlewares middlewares() {
        return middlewares;
    }

    /** Sends a record as it is to {@code topic} (a dead letter), waiting for the acknowledgement. */
    void forward(ProducerRecord<String, byte[]> record) throws Exception {
        producer.send(record).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the subscriptions, then closes the producer once what it holds is sent. */
    @Override
    public void close() {
        List<KafkaSubscription<?>> open;
        synchronized (subscriptions) {
            open = new ArrayList<>(subscriptions);
            subscriptions.clear();
        }
        open.forEach(KafkaSubscription::close);
        producer.close(sendTimeout);
    }

    /** Configures a {@link KafkaTransport}. */
    public static final class Builder extends TransportBuilder<Builder> {
        private final String bootstrap;
        private final Map<String, Object> producer = new HashMap<>();
        private final Map<String, Object> consumer = new HashMap<>();
        private Function<String, String> topics = Function.identity();
        private Duration sendTimeout = Duration.ofSeconds(30);

        private Builder(String bootstrap) {
            this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrapServers");
        }

        /** The topic of each name (default: the name itself). */
        public Builder topics(Function<String, String> topicOfName) {
            this.topics = Objects.requireNonNull(topicOfName, "topicOfName");
            return this;
        }

        /**
         * A producer setting of the service's own (security, compression, ...). {@code acks} and
         * {@code enable.idempotence} are this transport's: all, and true.
         */
        public Builder producerProperty(String key, Object value) {
            producer.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** A consumer setting of the service's own; offsets are committed by the subscription, never by a timer. */
        public Builder consumerProperty(String key, Object value) {
            consumer.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** How long a publish waits for the broker's acknowledgement (default 30 s; the producer's delivery timeout). */
        public Builder sendTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("sendTimeout must be positive, was " + timeout);
            }
            this.sendTimeout = timeout;
            return this;
        }

        /** Creates the producer (which connects at its first publish). */
        public KafkaTransport build() {
            return new KafkaTransport(this);
        }
    }
}
