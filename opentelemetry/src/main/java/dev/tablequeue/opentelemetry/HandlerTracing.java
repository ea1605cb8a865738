package dev.tablequeue.opentelemetry;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.transport.HandlerMiddleware;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import java.util.OptionalInt;

/**
 * The handler middleware: the rest of the handler call runs in a CONSUMER span, current on the handler's
 * thread, whose parent is the trace context the delivery's headers carry (the producer's span) and which
 * links to it. Each delivery of a row gets a span of its own, so a retried row shows one span per attempt,
 * all children of its producer. A delivery that carries no context starts a new trace (or continues the
 * context current on the handler's thread, where there is one).
 *
 * <p>Following the messaging conventions' opt-in for single messages, the message's context is the parent even
 * where the handler's thread has a span of its own (an in-process transport called inside a span); that span
 * is then kept as a link.
 */
final class HandlerTracing implements HandlerMiddleware {
    private final Spans spans;

    HandlerTracing(Spans spans) {
        this.spans = spans;
    }

    @Override
    public Outcome handle(String name, Delivery delivery, Next next) throws Exception {
        Telemetry.Resolved t = spans.telemetry().current();
        if (t.off()) {
            return next.call();
        }
        Context ambient = Context.current();
        SpanContext ambientSpan = Span.fromContext(ambient).getSpanContext();
        Context parent = t.propagator().extract(ambient, delivery.headers(), Headers.GETTER);
        SpanContext creation = Span.fromContext(parent).getSpanContext();
        SpanBuilder builder = spans.builder(t, SpanKind.CONSUMER, "process", "process", delivery.queue(), parent);
        if (creation.isValid() && !creation.equals(ambientSpan)) {
            builder.addLink(creation);
            if (ambientSpan.isValid()) {
                builder.addLink(ambientSpan);
            }
        }
        String table = delivery.table();
        if (!table.isEmpty()) {
            // only a queue table's id names the message; another transport's (a RabbitMQ delivery tag) does not
            builder.setAttribute(MessagingAttributes.TABLEQUEUE_TABLE, table);
            builder.setAttribute(MessagingAttributes.MESSAGING_MESSAGE_ID, String.valueOf(delivery.id()));
        }
        OptionalInt attempt = delivery.attempt();
        if (attempt.isPresent()) {
            builder.setAttribute(MessagingAttributes.TABLEQUEUE_ATTEMPT, attempt.getAsInt());
        }
        Span span = builder.startSpan();
        return Spans.around(span, parent.with(span), () -> {
            Outcome outcome = next.call();
            if (outcome == null) {
                span.setStatus(StatusCode.ERROR, "the handler answered no outcome");
            } else {
                span.setAttribute(MessagingAttributes.TABLEQUEUE_OUTCOME, name(outcome));
            }
            return outcome;
        });
    }

    static String name(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Ack a -> "ack";
            case Outcome.Retry r -> "retry";
            case Outcome.RetryAfter r -> "retry_after";
            case Outcome.Drop d -> "drop";
            case Outcome.DeadLetter d -> "dead_letter";
        };
    }
}
