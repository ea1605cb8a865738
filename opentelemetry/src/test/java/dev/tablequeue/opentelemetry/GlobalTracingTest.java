package dev.tablequeue.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.memory.MemoryBroker;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link TableQueueTracing#global()}: the global OpenTelemetry as it stands when each message passes. */
class GlobalTracingTest {
    private final List<Map<String, String>> received = new CopyOnWriteArrayList<>();

    @AfterEach
    void reset() {
        GlobalOpenTelemetry.resetForTest();
    }

    private MemoryBroker broker(TableQueueTracing tracing) {
        MemoryBroker memory = MemoryBroker.builder().publishMiddleware(tracing.publishMiddleware())
                .handlerMiddleware(tracing.handlerMiddleware()).build();
        memory.subscribe("orders", String.class, 1, (order, delivery) -> {
            received.add(delivery.headers());
            return Outcome.ack();
        });
        return memory;
    }

    @Test
    void tracing_built_before_the_sdk_is_installed_traces_once_it_is_and_never_sets_the_global_itself() {
        TableQueueTracing tracing = TableQueueTracing.global();
        try (MemoryBroker memory = broker(tracing); SpanRecorder recorder = new SpanRecorder()) {
            memory.publish("orders", "before");
            await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
            assertThat(received.get(0)).doesNotContainKey("traceparent");
            assertThat(GlobalOpenTelemetry.isSet()).isFalse();

            GlobalOpenTelemetry.set(recorder.openTelemetry());
            memory.publish("orders", "after");
            await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);
            SpanData producer = recorder.awaitSpans(SpanKind.PRODUCER, 1).get(0);
            assertThat(received.get(1)).containsEntry("traceparent", SpanRecorder.traceparent(producer));
            assertThat(recorder.awaitSpans(SpanKind.CONSUMER, 1).get(0).getParentSpanId()).isEqualTo(producer.getSpanId());
        }
    }
}
