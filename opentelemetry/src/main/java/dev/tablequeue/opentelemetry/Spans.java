package dev.tablequeue.opentelemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/**
 * What both middlewares share: the OpenTelemetry they trace with, the messaging system their spans name, the
 * attributes every messaging span starts with, and the run of a body inside a span.
 *
 * @param telemetry the OpenTelemetry, given or global
 * @param system the {@code messaging.system} of every span
 */
record Spans(Telemetry telemetry, String system) {

    /** What runs inside a span: the rest of a publish, or a handler call. */
    @FunctionalInterface
    interface Body<T> {
        T run() throws Exception;
    }

    /**
     * A messaging span named {@code "<operation> <destination>"}, child of {@code parent}, with the attributes
     * the conventions ask for at its start (a sampler reads them).
     */
    SpanBuilder builder(Telemetry.Resolved t, SpanKind kind, String operation, String type, String destination,
            Context parent) {
        return t.tracer().spanBuilder(operation + " " + destination)
                .setSpanKind(kind)
                .setParent(parent)
                .setAttribute(MessagingAttributes.MESSAGING_SYSTEM, system)
                .setAttribute(MessagingAttributes.MESSAGING_DESTINATION_NAME, destination)
                .setAttribute(MessagingAttributes.MESSAGING_OPERATION_TYPE, type)
                .setAttribute(MessagingAttributes.MESSAGING_OPERATION_NAME, operation);
    }

    /**
     * Runs {@code body} with {@code context} (which holds {@code span}) current; a throw marks the span failed and
     * goes on to the caller, and the span ends either way.
     */
    static <T> T around(Span span, Context context, Body<T> body) throws Exception {
        Scope scope = context.makeCurrent();
        try {
            return body.run();
        } catch (Exception | Error e) {
            failed(span, e);
            throw e;
        } finally {
            scope.close();
            span.end();
        }
    }

    /** Marks {@code span} failed by {@code failure}: its status, its {@code error.type} and the exception event. */
    static void failed(Span span, Throwable failure) {
        span.setAttribute(MessagingAttributes.ERROR_TYPE, failure.getClass().getName());
        span.recordException(failure);
        String message = failure.getMessage();
        if (message == null) {
            span.setStatus(StatusCode.ERROR);
        } else {
            span.setStatus(StatusCode.ERROR, message);
        }
    }
}
