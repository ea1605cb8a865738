package dev.tablequeue.opentelemetry;

import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_DESTINATION_NAME;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_MESSAGE_ID;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_SYSTEM;
import static dev.tablequeue.opentelemetry.MessagingAttributes.TABLEQUEUE_ATTEMPT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.memory.MemoryBroker;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tracing middlewares beside the outbox's on the in-memory broker, with the record table on SQLite: the
 * record keeps the trace context, so a message the republish sends again stays in the trace it was published in.
 */
class MemoryOutboxTracingIT {
    private FreshDatabase database;
    private HikariDataSource pool;
    private SpanRecorder recorder;
    private RecordTable records;
    private Outbox outbox;
    private MemoryBroker memory;
    private final AtomicBoolean sendFails = new AtomicBoolean();

    @BeforeEach
    void open() {
        database = FreshDatabase.create(Engine.SQLITE, "MemoryOutboxTracingIT");
        pool = database.pool(4);
        database.execute(TraceDatabase.SQLITE.recordTable("outbox"));
        records = new RecordTable("outbox", TraceDatabase.SQLITE.timeType());
        outbox = Outbox.builder(pool).register("orders", records.binding()).build();
        recorder = new SpanRecorder();
        TableQueueTracing tracing = TableQueueTracing.builder(recorder.openTelemetry()).system("memory").build();
        memory = MemoryBroker.builder()
                .publishMiddleware(tracing.publishMiddleware())          // first: the record keeps its context
                .publishMiddleware(outbox.publishMiddleware())
                .publishMiddleware((message, next) -> {                // the wire, which the test may cut
                    if (sendFails.get()) {
                        throw new IOException("the broker is away");
                    }
                    next.send(message);
                })
                .handlerMiddleware(tracing.handlerMiddleware())
                .handlerMiddleware(outbox.handlerMiddleware())
                .build();
        memory.subscribe("orders", String.class, 1, (order, delivery) -> Outcome.ack());
    }

    @AfterEach
    void close() {
        memory.close();
        outbox.close();
        recorder.close();
        pool.close();
        database.close();
    }

    private void publishInSpan(String order) {
        recorder.inSpan(() -> memory.publish("orders", order));
    }

    @Test
    void the_consumer_span_continues_the_producer_span_through_the_outbox_and_the_record_keeps_the_context() {
        publishInSpan("order 7");

        SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        SpanData consumer = recorder.awaitSpans(SpanKind.CONSUMER, 1).get(0);
        assertThat(consumer.getTraceId()).isEqualTo(producer.getTraceId());
        assertThat(consumer.getParentSpanId()).isEqualTo(producer.getSpanId());
        assertThat(consumer.getAttributes().get(MESSAGING_SYSTEM)).isEqualTo("memory");
        assertThat(consumer.getAttributes().get(MESSAGING_DESTINATION_NAME)).isEqualTo("orders");
        assertThat(consumer.getAttributes().get(TABLEQUEUE_ATTEMPT)).isEqualTo(1L);
        // a message of the in-memory broker comes from no table: its sequence number is no message id
        assertThat(consumer.getAttributes().get(MESSAGING_MESSAGE_ID)).isNull();
        String headers = DSL.using(pool, SQLDialect.SQLITE).select(records.HEADERS).from(records).fetchOne(records.HEADERS);
        assertThat(headers).contains(SpanRecorder.traceparent(producer));
    }

    @Test
    void a_record_the_republish_sends_again_stays_in_the_trace_it_was_published_in() {
        sendFails.set(true);
        assertThatThrownBy(() -> publishInSpan("order 8")).hasMessageContaining("the broker is away");
        SpanData failed = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        assertThat(recorder.spans(SpanKind.CONSUMER)).isEmpty();

        sendFails.set(false);
        assertThat(outbox.republish(memory::send)).isEqualTo(1);

        SpanData resent = recorder.awaitSpans(SpanKind.PRODUCER, 2).get(1);
        SpanData consumer = recorder.awaitSpans(SpanKind.CONSUMER, 1).get(0);
        assertThat(resent.getTraceId()).isEqualTo(failed.getTraceId());
        assertThat(resent.getParentSpanId()).isEqualTo(failed.getSpanId());
        assertThat(consumer.getTraceId()).isEqualTo(failed.getTraceId());
        assertThat(consumer.getParentSpanId()).isEqualTo(resent.getSpanId());
    }
}
