package dev.tablequeue.binding;

/** A statement of the queue that a binding may replace with the service's own SQL. */
public enum Event {
    CLAIM,
    FETCH,
    ACK,
    RETRY,
    RETRY_AFTER,
    DROP,
    DEAD_LETTER,
    EXTEND,
    LOCK,
    UNLOCK
}
