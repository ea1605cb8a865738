package dev.tablequeue.opentelemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/** What both middlewares write onto a span. */
final class Spans {
    private Spans() {}

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
