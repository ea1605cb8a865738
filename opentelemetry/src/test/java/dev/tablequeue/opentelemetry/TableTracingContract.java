package dev.tablequeue.opentelemetry;

import static dev.tablequeue.opentelemetry.MessagingAttributes.ERROR_TYPE;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_DESTINATION_NAME;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_MESSAGE_ID;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_OPERATION_NAME;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_OPERATION_TYPE;
import static dev.tablequeue.opentelemetry.MessagingAttributes.MESSAGING_SYSTEM;
import static dev.tablequeue.opentelemetry.MessagingAttributes.TABLEQUEUE_ATTEMPT;
import static dev.tablequeue.opentelemetry.MessagingAttributes.TABLEQUEUE_OUTCOME;
import static dev.tablequeue.opentelemetry.MessagingAttributes.TABLEQUEUE_TABLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.HeaderException;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.test.FreshDatabase;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The tracing middlewares on the table broker, run on each database by a small subclass: the trace context
 * crosses the table in the row's headers, and each delivery's handler runs in a consumer span of the
 * producer's trace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TableTracingContract {
    private final AtomicInteger tables = new AtomicInteger();
    private FreshDatabase database;
    private HikariDataSource pool;
    private SpanRecorder recorder;
    private TracedQueue queue;

    /** The database under test. */
    protected abstract TraceDatabase db();

    @BeforeAll
    void openDatabase() {
        database = FreshDatabase.create(db().engine(), getClass().getSimpleName());
        pool = database.pool(4);
    }

    @AfterAll
    void dropDatabase() {
        if (pool != null) {
            pool.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @BeforeEach
    void record() {
        recorder = new SpanRecorder();
    }

    @AfterEach
    void stop() {
        if (queue != null) {
            queue.close();
            queue = null;
        }
        recorder.close();
    }

    private TraceTable table(HeaderLayout layout) {
        String name = "trace_" + tables.incrementAndGet();
        database.execute(db().queueTable(name, layout));
        return new TraceTable(name, db().timeType(), layout);
    }

    private TracedQueue queue(HeaderLayout layout, TableQueueTracing tracing, TracedQueue.Script script) {
        queue = new TracedQueue(pool, table(layout), tracing, script);
        return queue;
    }

    private TableQueueTracing tracing() {
        return TableQueueTracing.create(recorder.openTelemetry());
    }

    /** Publishes {@code text} inside a span of the test's own, which it returns (ended). */
    private SpanData publishInSpan(TracedQueue q, String text) {
        recorder.inSpan(() -> q.publish(text));
        return recorder.awaitSpans(SpanKind.INTERNAL, 1).get(0);
    }

    private String headersColumn(TracedQueue q) {
        DSLContext dsl = DSL.using(pool, q.broker.dialect().sqlDialect());
        return dsl.select(q.table.HEADERS).from(q.table).fetchOne(q.table.HEADERS);
    }

    @Test
    final void the_consumer_span_is_a_child_of_the_producer_span_across_the_table() {
        TracedQueue q = queue(HeaderLayout.COLUMN, tracing(), d -> Outcome.ack());
        SpanData checkout = publishInSpan(q, "hello");

        SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        SpanData consumer = recorder.awaitSpans(SpanKind.CONSUMER, 1).get(0);
        assertThat(producer.getName()).isEqualTo("publish emails");
        assertThat(producer.getParentSpanId()).isEqualTo(checkout.getSpanId());
        assertThat(producer.getTraceId()).isEqualTo(checkout.getTraceId());
        assertThat(producer.getAttributes().get(MESSAGING_SYSTEM)).isEqualTo("tablequeue");
        assertThat(producer.getAttributes().get(MESSAGING_DESTINATION_NAME)).isEqualTo("emails");
        assertThat(producer.getAttributes().get(MESSAGING_OPERATION_TYPE)).isEqualTo("send");
        assertThat(producer.getAttributes().get(MESSAGING_OPERATION_NAME)).isEqualTo("publish");

        assertThat(consumer.getName()).isEqualTo("process emails");
        assertThat(consumer.getTraceId()).isEqualTo(producer.getTraceId());
        assertThat(consumer.getParentSpanId()).isEqualTo(producer.getSpanId());
        assertThat(consumer.getParentSpanContext().isRemote()).isTrue();
        assertThat(consumer.getLinks()).extracting(LinkData::getSpanContext)
                .extracting(c -> c.getSpanId()).containsExactly(producer.getSpanId());
        TracedQueue.Seen seen = q.seen.get(0);
        assertThat(seen.span()).isEqualTo(consumer.getSpanContext());
        assertThat(consumer.getAttributes().get(MESSAGING_SYSTEM)).isEqualTo("tablequeue");
        assertThat(consumer.getAttributes().get(MESSAGING_DESTINATION_NAME)).isEqualTo("emails");
        assertThat(consumer.getAttributes().get(MESSAGING_OPERATION_TYPE)).isEqualTo("process");
        assertThat(consumer.getAttributes().get(MESSAGING_MESSAGE_ID)).isEqualTo(String.valueOf(seen.id()));
        assertThat(consumer.getAttributes().get(TABLEQUEUE_TABLE)).isEqualTo(q.binding.tableName());
        assertThat(consumer.getAttributes().get(TABLEQUEUE_ATTEMPT)).isEqualTo(1L);
        assertThat(consumer.getAttributes().get(TABLEQUEUE_OUTCOME)).isEqualTo("ack");
        assertThat(consumer.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);

        // the context crossed the table in the row's own headers column
        assertThat(headersColumn(q)).contains("\"traceparent\":\"" + SpanRecorder.traceparent(producer) + "\"");
    }

    @Test
    final void a_retried_delivery_gives_a_second_consumer_span_in_the_same_trace() {
        TracedQueue q = queue(HeaderLayout.COLUMN, tracing(),
                d -> d.attempt().getAsInt() == 1 ? Outcome.retry() : Outcome.ack());
        publishInSpan(q, "again");

        SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        List<SpanData> consumers = recorder.awaitSpans(SpanKind.CONSUMER, 2);
        assertThat(consumers).hasSize(2);
        assertThat(consumers).allSatisfy(c -> {
            assertThat(c.getTraceId()).isEqualTo(producer.getTraceId());
            assertThat(c.getParentSpanId()).isEqualTo(producer.getSpanId());
        });
        assertThat(consumers.get(0).getSpanId()).isNotEqualTo(consumers.get(1).getSpanId());
        assertThat(consumers).extracting(c -> c.getAttributes().get(TABLEQUEUE_ATTEMPT)).containsExactly(1L, 2L);
        assertThat(consumers).extracting(c -> c.getAttributes().get(TABLEQUEUE_OUTCOME))
                .containsExactly("retry", "ack");
        assertThat(q.seen).extracting(TracedQueue.Seen::id).containsOnly(q.seen.get(0).id());
    }

    @Test
    final void a_handler_that_throws_gives_an_error_span_with_the_exception_and_its_retry_a_span_of_its_own() {
        TracedQueue q = queue(HeaderLayout.COLUMN, tracing(), d -> {
            if (d.attempt().getAsInt() == 1) {
                throw new IllegalStateException("the mail server is down");
            }
            return Outcome.ack();
        });
        publishInSpan(q, "fails once");

        SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        List<SpanData> consumers = recorder.awaitSpans(SpanKind.CONSUMER, 2);
        SpanData failed = consumers.get(0);
        assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(failed.getStatus().getDescription()).isEqualTo("the mail server is down");
        assertThat(failed.getAttributes().get(ERROR_TYPE)).isEqualTo("java.lang.IllegalStateException");
        assertThat(failed.getAttributes().get(TABLEQUEUE_OUTCOME)).isNull();
        assertThat(failed.getEvents()).extracting(EventData::getName).containsExactly("exception");
        assertThat(failed.getEvents().get(0).getAttributes().asMap().values())
                .contains("java.lang.IllegalStateException", "the mail server is down");
        SpanData retried = consumers.get(1);
        assertThat(retried.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(retried.getAttributes().get(TABLEQUEUE_OUTCOME)).isEqualTo("ack");
        assertThat(consumers).extracting(SpanData::getParentSpanId).containsOnly(producer.getSpanId());
    }

    @Test
    final void a_publish_outside_any_span_starts_a_trace_that_its_consumer_continues() {
        TracedQueue q = queue(HeaderLayout.COLUMN, tracing(), d -> Outcome.ack());
        q.publish("no parent");

        SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        SpanData consumer = recorder.awaitSpans(SpanKind.CONSUMER, 1).get(0);
        assertThat(producer.getParentSpanContext().isValid()).isFalse();
        assertThat(consumer.getTraceId()).isEqualTo(producer.getTraceId());
        assertThat(consumer.getParentSpanId()).isEqualTo(producer.getSpanId());
    }

    @Test
    final void a_row_written_without_a_trace_context_is_handled_in_a_new_root_span() {
        TracedQueue q = queue(HeaderLayout.COLUMN, tracing(), d -> Outcome.ack());
        DSLContext dsl = DSL.using(pool, q.broker.dialect().sqlDialect());
        dsl.insertInto(q.table).columns(q.table.GRP, q.table.PAYLOAD).values("emails", "\"own insert\"".getBytes())
                .execute();

        SpanData consumer = recorder.awaitSpans(SpanKind.CONSUMER, 1).get(0);
        assertThat(consumer.getParentSpanContext().isValid()).isFalse();
        assertThat(consumer.getLinks()).isEmpty();
        assertThat(consumer.getAttributes().get(TABLEQUEUE_OUTCOME)).isEqualTo("ack");
        assertThat(recorder.spans(SpanKind.PRODUCER)).isEmpty();
    }

    @Test
    final void without_an_sdk_the_publish_writes_no_header_and_the_handler_runs_outside_any_span() {
        TracedQueue q = queue(HeaderLayout.COLUMN, TableQueueTracing.create(OpenTelemetry.noop()), d -> Outcome.ack());
        recorder.inSpan(() -> q.publish("untraced"));

        await().atMost(Duration.ofSeconds(20)).until(() -> q.seen.size() == 1);
        assertThat(q.seen.get(0).span().isValid()).isFalse();
        assertThat(headersColumn(q)).doesNotContain("traceparent");
        assertThat(recorder.spans(SpanKind.PRODUCER)).isEmpty();
        assertThat(recorder.spans(SpanKind.CONSUMER)).isEmpty();
    }

    @Test
    final void a_table_with_traceparent_and_tracestate_columns_carries_the_context_in_them() {
        TracedQueue q = queue(HeaderLayout.FIELDS, tracing(), d -> Outcome.ack());
        publishInSpan(q, "in columns");

        SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        SpanData consumer = recorder.awaitSpans(SpanKind.CONSUMER, 1).get(0);
        assertThat(consumer.getParentSpanId()).isEqualTo(producer.getSpanId());
        DSLContext dsl = DSL.using(pool, q.broker.dialect().sqlDialect());
        assertThat(dsl.select(q.table.TRACEPARENT).from(q.table).fetchOne(q.table.TRACEPARENT))
                .isEqualTo(SpanRecorder.traceparent(producer));
    }

    @Test
    final void a_table_that_keeps_no_headers_refuses_the_traced_publish_naming_the_table_and_the_header() {
        TracedQueue q = queue(HeaderLayout.NONE, tracing(), d -> Outcome.ack());
        recorder.inSpan(() -> assertThatThrownBy(() -> q.publish("lost context")).isInstanceOf(HeaderException.class)
                .hasMessageContaining("\"" + q.binding.tableName() + "\"").hasMessageContaining("traceparent"));
        DSLContext dsl = DSL.using(pool, q.broker.dialect().sqlDialect());
        assertThat(dsl.fetchCount(q.table)).isZero();
        SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
        assertThat(producer.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(producer.getAttributes().get(ERROR_TYPE)).isEqualTo(HeaderException.class.getName());
    }
}
