package dev.tablequeue.broker;

import java.util.Objects;

/**
 * What a publish did: the id of the row it wrote (the database's generated id, or the one the message gave),
 * the table it went into, whether the row was inserted, and whether the send waits for the commit of the
 * caller's transaction. Every publish returns one, so a test or a caller can follow the job it published
 * without querying for it ({@code watch.awaitAcknowledged(result, timeout)} in the test kit).
 *
 * <p>{@link #inserted()} is true for every publish that wrote its row. It is there so that a publish that
 * writes no row (a unique job whose key is taken, say) can report it with the id of the row that holds the key,
 * without another result type: check it where that can happen.
 *
 * <p>Through a transport that leaves the database (an in-memory broker, RabbitMQ) with the outbox mounted, the
 * row is the outbox's record of the message: its id is the record's, and {@link #deferred()} says whether the
 * send follows the commit of the caller's transaction.
 */
public final class PublishResult {
    private final String table;
    private final Object id;
    private final boolean inserted;
    private final boolean deferred;

    private PublishResult(String table, Object id, boolean inserted, boolean deferred) {
        this.table = table;
        this.id = id;
        this.inserted = inserted;
        this.deferred = deferred;
    }

    /** A row of {@code table} written with {@code id} (null where the publish cannot know it: an own insert). */
    public static PublishResult inserted(String table, Object id) {
        return new PublishResult(Objects.requireNonNull(table, "table"), id, true, false);
    }

    /**
     * A row of {@code table} written with {@code id} (the outbox's record), whose message a middleware sends
     * only once the caller's transaction commits (and never, where it rolls back).
     */
    public static PublishResult insertedSentAfterCommit(String table, Object id) {
        return new PublishResult(Objects.requireNonNull(table, "table"), id, true, true);
    }

    /**
     * A publish into a table with a unique key that wrote no row, because the row {@code id} of {@code table}
     * holds its key already (read in the publish's transaction).
     */
    public static PublishResult keyTaken(String table, Object id) {
        return new PublishResult(Objects.requireNonNull(table, "table"), id, false, false);
    }

    /**
     * A publish that wrote no row: a message a transport sent with no outbox record (a name the outbox does not
     * track), or one a publish middleware did not pass on.
     */
    public static PublishResult noRow() {
        return new PublishResult(null, null, false, false);
    }

    /**
     * The id of the row written, in the Java type of the binding's id column where the broker read it (a
     * {@code Long} for a {@code BIGINT} identity): the database's generated id, or the one the message gave.
     * For a key taken ({@link #keyTaken}), the id of the row that holds it. Null where no row was written, or
     * where the service's own insert ({@link OwnInsert}) wrote it.
     */
    public Object id() {
        return id;
    }

    /** The name of the table the row went into; null where no row was written. */
    public String table() {
        return table;
    }

    /**
     * Whether the publish wrote its row: true for every publish that did. False where it wrote none: a message
     * a transport sent with no outbox record, one a middleware did not pass on, or a message whose unique key a
     * row holds already ({@link #keyTaken}: then {@link #id()} and {@link #table()} name that row).
     */
    public boolean inserted() {
        return inserted;
    }

    /**
     * Whether the send waits for the commit of the caller's transaction: the outbox wrote its record in that
     * transaction and holds the message back until it commits (a transport that leaves the database). When
     * {@code publish} returns, such a message has not been sent; it never is, where the transaction rolls back.
     */
    public boolean deferred() {
        return deferred;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublishResult r && Objects.equals(table, r.table) && Objects.equals(id, r.id)
                && inserted == r.inserted && deferred == r.deferred;
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, id, inserted, deferred);
    }

    @Override
    public String toString() {
        if (!inserted) {
            return table == null ? "PublishResult[no row written]"
                    : "PublishResult[no row written: " + table + " id " + id + " holds the key]";
        }
        return "PublishResult[" + table + " id " + id + (deferred ? ", sent after the commit" : "") + "]";
    }
}
