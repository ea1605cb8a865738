package dev.tablequeue.binding;

/**
 * The part a column plays in a queue table. Each role but {@link #ID} is optional, and each is played by
 * one column at most.
 */
public enum Role {
    /** The row's key: what a claim returns and every settlement names. */
    ID("id"),
    /** The queue a row belongs to: a subscription's name selects its group. */
    GROUP("group"),
    /** A smaller value is claimed first. */
    PRIORITY("priority"),
    /** Rows of one key run in order under {@code workersByKey(n)}. */
    PARTITION_KEY("partitionKey"),
    /** When a row comes due; a delayed retry moves it forward. */
    RETRY_AFTER("retryAfter"),
    /** How many deliveries the row has had; the first delivery reads 1. */
    ATTEMPT("attempt"),
    /** Set when a row is acknowledged; without it an acknowledgement deletes the row. */
    PROCESSED_AT("processedAt"),
    /** The expiry of a lease (the lease form's {@code locked_until}). */
    LEASE("lease"),
    /** The delivery's headers, kept in one JSON or text column. */
    HEADERS("headers"),
    /** The message bytes: payload mode. */
    PAYLOAD("payload"),
    /**
     * Why the row last failed: the exception's class and message, written with every retry, dead letter and
     * drop that a failure caused, in a text column.
     */
    LAST_ERROR("lastError"),
    /**
     * A key no two rows share, kept by a unique index the service migrates: a publish whose key is taken writes
     * no row ({@code uniqueKey(..)}, or {@code uniqueKeyWhilePending(..)} where only pending rows hold it).
     */
    UNIQUE_KEY("uniqueKey");

    private final String setting;

    Role(String setting) {
        this.setting = setting;
    }

    /** The name of the builder method that declares this role, as error messages name it. */
    public String setting() {
        return setting;
    }
}
