package dev.tablequeue.outbox;

/**
 * The headers the outbox reads and writes on a message beside {@link Outbox#ID_HEADER}, the record's id.
 */
public final class OutboxHeaders {
    /**
     * Carried, with the value {@link #CONFIRMED}, by a message whose record is done on the broker's confirmation
     * ({@link DoneWhen#CONFIRMED}): a consumer's outbox tracking leaves such a message to the consumer's own dedup,
     * since its record is processed once sent, not once handled.
     */
    public static final String DONE = "tablequeue-outbox-done";

    /** The value of {@link #DONE}. */
    public static final String CONFIRMED = "confirmed";

    /**
     * The message's key (Kafka's record key): kept in the record with the other headers, so a resend has the same
     * key, and the periodic republish keeps the id order of one key's records.
     */
    public static final String KEY = "tablequeue-key";

    private OutboxHeaders() {}
}
