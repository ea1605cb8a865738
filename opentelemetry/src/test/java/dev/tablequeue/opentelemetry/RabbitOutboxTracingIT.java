package dev.tablequeue.opentelemetry;

import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_DESTINATION_NAME;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_MESSAGE_ID;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_SYSTEM;
import static dev.tablequeue.opentelemetry.MessagingAttributes.TABLEQUEUE_ATTEMPT;
import static dev.tablequeue.opentelemetry.MessagingAttributes.TABLEQUEUE_OUTCOME;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.rabbitmq.RabbitTransport;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tracing middlewares beside the outbox's on RabbitMQ (on an exchange and a queue of the test's own), with
 * the record table on PostgreSQL: an order's message published in the order's transaction is sent after the
 * commit, and its consumer continues the trace of the publish.
 */
class RabbitOutboxTracingIT {
    private final String exchange = FreshDatabase.prefix() + "otel_" + UUID.randomUUID().toString().substring(0, 8);
    private final String queue = exchange + ".orders";
    private FreshDatabase database;
    private HikariDataSource pool;
    private SpanRecorder recorder;
    private Outbox outbox;
    private RabbitTransport rabbit;

    @BeforeEach
    void open() throws Exception {
        database = FreshDatabase.create(Engine.POSTGRES, "RabbitOutboxTracingIT");
        pool = database.pool(4);
        database.execute(TraceDatabase.POSTGRES.recordTable("outbox"));
        outbox = Outbox.builder(pool).register("orders", new RecordTable("outbox", TraceDatabase.POSTGRES.timeType())
                .binding()).build();
        recorder = new SpanRecorder();
        TableQueueTracing tracing = TableQueueTracing.builder(recorder.openTelemetry()).system("rabbitmq").build();
        try {
            rabbit = RabbitTransport.builder(factory()).exchange(exchange).connectionName(exchange)
                    .confirmTimeout(Duration.ofSeconds(5))
                    .publishMiddleware(tracing.publishMiddleware())
                    .publishMiddleware(outbox.publishMiddleware())
                    .handlerMiddleware(tracing.handlerMiddleware())
                    .handlerMiddleware(outbox.handlerMiddleware())
                    .build();
        } catch (RuntimeException e) {
            if (FreshDatabase.liveRequired()) {
                throw new IllegalStateException("RabbitMQ is not reachable (TABLEQUEUE_REQUIRE_LIVE=1)", e);
            }
            Assumptions.abort("RabbitMQ is not reachable: " + e.getMessage());
        }
        try (Connection admin = factory().newConnection(exchange + "-admin"); Channel ch = admin.createChannel()) {
            ch.exchangeDeclare(exchange, "direct", false, true, null);
            ch.queueDeclare(queue, false, false, false, null);
            ch.queueBind(queue, exchange, "orders");
        }
    }

    private static ConnectionFactory factory() {
        ConnectionFactory f = new ConnectionFactory();
        f.setHost(env("TABLEQUEUE_RABBITMQ_HOST", "127.0.0.1"));
        f.setPort(Integer.parseInt(env("TABLEQUEUE_RABBITMQ_PORT", "5672")));
        f.setUsername("guest");
        f.setPassword("guest");
        return f;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    @AfterEach
    void close() throws Exception {
        if (rabbit != null) {
            rabbit.close();
            try (Connection admin = factory().newConnection(exchange + "-admin"); Channel ch = admin.createChannel()) {
                ch.queueDelete(queue);
                ch.exchangeDelete(exchange);
            }
        }
        outbox.close();
        recorder.close();
        pool.close();
        database.close();
    }

    @Test
    void the_consumer_span_of_a_message_sent_after_its_transaction_commits_continues_the_publish() {
        rabbit.subscribe(queue, String.class, 1, (order, delivery) -> Outcome.ack());
        DSLContext dsl = DSL.using(new DefaultConfiguration().set(pool).set(SQLDialect.POSTGRES)
                .set(outbox.transactionListener()));
        SpanContext checkout = recorder.inSpan(
                () -> dsl.transaction(cfg -> rabbit.publish(DSL.using(cfg), "orders", "order 7")));

        SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        SpanData consumer = recorder.awaitSpans(SpanKind.CONSUMER, 1).get(0);
        assertThat(producer.getParentSpanId()).isEqualTo(checkout.getSpanId());
        assertThat(producer.getAttributes().get(MESSAGING_SYSTEM)).isEqualTo("rabbitmq");
        assertThat(producer.getAttributes().get(MESSAGING_DESTINATION_NAME)).isEqualTo("orders");
        assertThat(consumer.getTraceId()).isEqualTo(producer.getTraceId());
        assertThat(consumer.getParentSpanId()).isEqualTo(producer.getSpanId());
        assertThat(consumer.getAttributes().get(MESSAGING_SYSTEM)).isEqualTo("rabbitmq");
        assertThat(consumer.getAttributes().get(MESSAGING_DESTINATION_NAME)).isEqualTo(queue);
        assertThat(consumer.getAttributes().get(TABLEQUEUE_OUTCOME)).isEqualTo("ack");
        // RabbitMQ counts no attempts, and its delivery tag names no message
        assertThat(consumer.getAttributes().get(TABLEQUEUE_ATTEMPT)).isNull();
        assertThat(consumer.getAttributes().get(MESSAGING_MESSAGE_ID)).isNull();
    }
}
