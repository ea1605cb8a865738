package dev.tablequeue.opentelemetry;

import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/** An OpenTelemetry SDK whose spans end in memory, each exported as it ends, with W3C trace context propagation. */
final class SpanRecorder implements AutoCloseable {
    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();

    OpenTelemetry openTelemetry() {
        return sdk;
    }

    /** A tracer of the test's own, for the spans a publish happens in. */
    Tracer tracer() {
        return sdk.getTracer("test");
    }

    /** The spans of {@code kind} ended so far, in the order they started. */
    List<SpanData> spans(SpanKind kind) {
        return exporter.getFinishedSpanItems().stream().filter(s -> s.getKind() == kind)
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
    }

    /** Waits until {@code count} spans of {@code kind} have ended, and returns them in the order they started. */
    List<SpanData> awaitSpans(SpanKind kind, int count) {
        await().atMost(Duration.ofSeconds(20)).until(() -> spans(kind).size() >= count);
        return spans(kind);
    }

    /** Runs {@code work} inside a span of the test's own, "checkout", and returns the span's context (ended). */
    SpanContext inSpan(Runnable work) {
        Span checkout = tracer().spanBuilder("checkout").startSpan();
        Scope scope = checkout.makeCurrent();
        try {
            work.run();
        } finally {
            scope.close();
            checkout.end();
        }
        return checkout.getSpanContext();
    }

    /** The W3C traceparent header that carries {@code span}'s context. */
    static String traceparent(SpanData span) {
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getSpanContext().getTraceFlags().asHex();
    }

    @Override
    public void close() {
        sdk.close();
    }
}
