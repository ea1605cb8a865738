package dev.tablequeue.outbox;

/** What the outbox does to a record, each of which a binding may run with the service's own statement. */
public enum OutboxEvent {
    /** Reads a tracked delivery's record by its id: is it processed already? */
    FETCH,
    /** Marks the record of an acknowledged delivery processed (by default: sets processed_at, or deletes it). */
    ACK,
    /** What a retried delivery does to its record (by default nothing: the record waits for the republish). */
    RETRY,
    /** Marks the record of a dropped delivery processed, as {@link #ACK} does by default. */
    DROP,
    /** Reads the unprocessed records of some names, in id order, for the republish at startup. */
    RECOVER
}
