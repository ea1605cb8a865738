package dev.tablequeue.opentelemetry;

import dev.tablequeue.transport.OutgoingMessage;
import dev.tablequeue.transport.PublishMiddleware;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;

/**
 * The publish middleware: a PRODUCER span around the rest of the publish, whose context the propagator
 * writes into the message's headers, so the consumer continues the trace.
 *
 * <p>The span's parent is the context current on the publishing thread. Where that holds no span and the
 * message carries a trace context already (a record the outbox sends again, a message published with the
 * headers of an earlier one), the span continues the context it carries: a message sent again stays in the
 * trace it was first published in.
 */
final class PublishTracing implements PublishMiddleware {
    private final Spans spans;

    PublishTracing(Spans spans) {
        this.spans = spans;
    }

    @Override
    public void publish(OutgoingMessage message, Send next) throws Exception {
        Telemetry.Resolved t = spans.telemetry().current();
        if (t.off()) {
            next.send(message);
            return;
        }
        Context parent = parent(t, message);
        Span span = spans.builder(t, SpanKind.PRODUCER, "publish", "send", message.name(), parent).startSpan();
        Context context = parent.with(span);
        t.propagator().inject(context, message, Headers.SETTER);
        Spans.around(span, context, () -> {
            next.send(message);
            return null;
        });
    }

    private static Context parent(Telemetry.Resolved t, OutgoingMessage message) {
        Context current = Context.current();
        if (Span.fromContext(current).getSpanContext().isValid() || message.headers().isEmpty()) {
            return current;
        }
        Context carried = t.propagator().extract(current, message.headers(), Headers.GETTER);
        return Span.fromContext(carried).getSpanContext().isValid() ? carried : current;
    }
}
