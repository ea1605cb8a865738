package dev.tablequeue.opentelemetry;

import dev.tablequeue.transport.HandlerMiddleware;
import dev.tablequeue.transport.PublishMiddleware;
import io.opentelemetry.api.OpenTelemetry;
import java.util.Objects;

/**
 * OpenTelemetry tracing of a transport, as a pair of middlewares: a publish writes the current trace context
 * into the message's headers (through the OpenTelemetry's propagators: W3C {@code traceparent} and
 * {@code tracestate} by default) inside a PRODUCER span, and each delivery's handler runs in a CONSUMER span
 * that continues it. Both carry the messaging semantic conventions' attributes ({@link MessagingAttributes}).
 *
 * <pre>{@code
 * TableQueueTracing tracing = TableQueueTracing.create(openTelemetry);     // or TableQueueTracing.global()
 * QueueBroker broker = QueueBroker.builder(dataSource)
 *     .publishMiddleware(tracing.publishMiddleware())                      // first: the outbox's record keeps the context
 *     .handlerMiddleware(tracing.handlerMiddleware())
 *     .build();
 * }</pre>
 *
 * <p>It needs the OpenTelemetry API alone. Without an SDK (or before one is installed, for {@link #global()})
 * every span is a no-op, no header is written, and each middleware passes its message on at once.
 *
 * <p>A queue table keeps the headers only where its binding has a headers column, or header fields named
 * {@code traceparent} and {@code tracestate}: a publish into a table with neither fails with a
 * {@link dev.tablequeue.HeaderException} naming the table and the header.
 */
public final class TableQueueTracing {
    /** The messaging system of a queue table: {@value}. */
    public static final String TABLEQUEUE = "tablequeue";

    private final Spans spans;

    private TableQueueTracing(Spans spans) {
        this.spans = spans;
    }

    /** Tracing with {@code openTelemetry}, for a queue table (messaging system {@value #TABLEQUEUE}). */
    public static TableQueueTracing create(OpenTelemetry openTelemetry) {
        return builder(openTelemetry).build();
    }

    /**
     * Tracing with the global OpenTelemetry as it stands when each message passes, for a queue table. It never
     * sets the global itself.
     */
    public static TableQueueTracing global() {
        return new Builder(null).build();
    }

    /** Configures tracing with {@code openTelemetry}. */
    public static Builder builder(OpenTelemetry openTelemetry) {
        return new Builder(Objects.requireNonNull(openTelemetry, "openTelemetry"));
    }

    /** Configures tracing with the global OpenTelemetry (see {@link #global()}). */
    public static Builder builderGlobal() {
        return new Builder(null);
    }

    /** The middleware to add to a transport's publishes; add it before the outbox's. */
    public PublishMiddleware publishMiddleware() {
        return new PublishTracing(spans);
    }

    /** The middleware to add to a transport's handler calls; add it before the outbox's. */
    public HandlerMiddleware handlerMiddleware() {
        return new HandlerTracing(spans);
    }

    /** The messaging system the spans name. */
    public String system() {
        return spans.system();
    }

    /** Configures a {@link TableQueueTracing}. */
    public static final class Builder {
        private final OpenTelemetry openTelemetry;
        private String system = TABLEQUEUE;

        private Builder(OpenTelemetry openTelemetry) {
            this.openTelemetry = openTelemetry;
        }

        /**
         * The {@code messaging.system} the spans carry: {@value #TABLEQUEUE} (the default) on the table
         * broker, {@code "rabbitmq"} on the outbox's RabbitMQ transport.
         */
        public Builder system(String system) {
            Objects.requireNonNull(system, "system");
            if (system.isBlank()) {
                throw new IllegalArgumentException("the messaging system of the tracing must not be blank");
            }
            this.system = system;
            return this;
        }

        public TableQueueTracing build() {
            return new TableQueueTracing(new Spans(openTelemetry == null ? Telemetry.global() : Telemetry.of(openTelemetry),
                    system));
        }
    }
}
