package dev.tablequeue.opentelemetry;

/** Where a test's queue table keeps a message's headers. */
enum HeaderLayout {
    /** One JSON column, {@code headers}. */
    COLUMN,
    /** A column per header: {@code traceparent} and {@code tracestate}. */
    FIELDS,
    /** Nowhere. */
    NONE
}
