package dev.tablequeue.opentelemetry;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.jooq.Record;

/**
 * One queue ("emails") of a {@link TraceTable} on the table broker, traced by the given tracing (or not at
 * all), whose handler answers what the test's script says for each delivery and keeps what it saw.
 */
final class TracedQueue implements AutoCloseable {
    static final String QUEUE = "emails";

    /** What a delivery's handler answers (or throws). */
    @FunctionalInterface
    interface Script {
        Outcome answer(Delivery delivery) throws Exception;
    }

    /** What the handler saw of one delivery: its row id, its attempt and the span current around it. */
    record Seen(Object id, int attempt, SpanContext span) {}

    final TraceTable table;
    final RoleBinding<Record> binding;
    final QueueBroker broker;
    final List<Seen> seen = new CopyOnWriteArrayList<>();

    TracedQueue(DataSource pool, TraceTable table, TableQueueTracing tracing, Script script) {
        this.table = table;
        this.binding = table.binding();
        QueueBroker.Builder b = QueueBroker.builder(pool).pollInterval(Duration.ofMillis(50))
                .drainTimeout(Duration.ofSeconds(10)).route("*", binding);
        if (tracing != null) {
            b.publishMiddleware(tracing.publishMiddleware()).handlerMiddleware(tracing.handlerMiddleware());
        }
        this.broker = b.build();
        broker.subscribe(InboxQueue.of(binding, QUEUE)).payload(String.class)
                .onHandlerFailure(FailurePolicy.retry())
                .handle((text, delivery) -> {
                    seen.add(new Seen(delivery.id(), delivery.attempt().orElse(-1), Span.current().getSpanContext()));
                    return script.answer(delivery);
                });
        broker.start();
    }

    void publish(String text) {
        broker.publisher().publish(Message.of(QUEUE, text));
    }

    @Override
    public void close() {
        broker.close();
    }
}
