package dev.tablequeue.transport;

import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * A message on its way to a transport, as a {@link PublishMiddleware} sees it: its name, its encoded payload
 * and its headers, which a middleware may add to before the send.
 *
 * <p>This SPI may still change before 1.0.
 */
public interface OutgoingMessage {

    /** The name the message is published under (a group of a queue table, a routing key). */
    String name();

    /** The payload as the transport sends it: encoded by its codec the first time it is asked for. */
    byte[] payload();

    /** The headers so far, read-only; {@link #header} adds to them. */
    Map<String, String> headers();

    /** Adds (or replaces) a header the send carries. */
    void header(String key, String value);

    /** The caller's transaction the publish was given, or null where it was given none. */
    DSLContext transaction();

    /**
     * Whether the send itself writes in {@link #transaction()}, so it commits or rolls back with it (a publish
     * into a queue table with the caller's context). False where the send leaves the database (a broker of its
     * own), or where there is no transaction.
     */
    boolean sendJoinsTransaction();

    /**
     * Asks the send to write a row of {@code insert}'s table, with {@code values} (JDBC values in the order of
     * its columns), in the same statement as the message and before it: the message then carries the row's
     * generated id in {@link LeadingInsert#idHeader()}, a row that cannot be written fails the send with
     * nothing written, and the id is in {@link #headers()} once the send has run. True where the send took it:
     * a send that writes into a table in {@link #transaction()}, on a database that writes two tables in one
     * statement. False (the default) where it cannot; the caller then writes the row itself.
     */
    default boolean writeFirst(LeadingInsert insert, List<?> values) {
        return false;
    }

    /**
     * Tells the transport that a middleware wrote a row of {@code table} for this message (the outbox's record
     * of it) with id {@code id}. A transport that writes no row of its own (one that leaves the database)
     * reports it as the publish's row ({@link dev.tablequeue.broker.PublishResult}); one that writes the
     * message into a table reports that row, and ignores this (the default).
     */
    default void recorded(String table, Object id) {}

    /**
     * Tells the transport that a middleware holds the send back until the caller's transaction commits (and
     * drops it where it rolls back): the publish returns before the message is sent, and its result says so
     * ({@link dev.tablequeue.broker.PublishResult#deferred()}). The default ignores it.
     */
    default void sendsAfterCommit() {}
}
