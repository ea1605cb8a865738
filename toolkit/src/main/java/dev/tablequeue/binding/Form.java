package dev.tablequeue.binding;

/** How a claim holds the rows it takes into work. */
public enum Form {
    /**
     * {@code FOR UPDATE SKIP LOCKED} in a transaction that stays open while the handler runs; the
     * settlement commits it. Not on SQLite.
     */
    ROW_LOCK,
    /** The claim writes an expiry into the lease column, counts the attempt and commits at once. */
    LEASE,
    /** A lock on each row's key, held by the connection that holds the delivery. */
    ADVISORY
}
