package dev.tablequeue.outbox;

import dev.tablequeue.broker.PublishResult;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * The publishing side of a transport that leaves the database (the in-memory broker, RabbitMQ): every publish
 * runs the transport's publish middlewares, so a tracked name is recorded first.
 */
public interface MessagePublisher {

    /**
     * Publishes {@code payload} (bytes as they are, anything else through the transport's codec) under
     * {@code name} with {@code headers}, for the caller's transaction {@code ctx} (null: none). With a
     * transaction, the outbox writes its record in it and the send follows the commit.
     *
     * @return the outbox's record of a tracked name (its id, and {@link PublishResult#deferred()} where the
     *     send waits for the commit); {@link PublishResult#noRow()} for a name the outbox does not track
     */
    PublishResult publish(DSLContext ctx, String name, Object payload, Map<String, String> headers);

    /** Publishes {@code payload} under {@code name}; returns as {@link #publish(DSLContext, String, Object, Map)}. */
    default PublishResult publish(String name, Object payload) {
        return publish(null, name, payload, Map.of());
    }

    /** Publishes {@code payload} under {@code name} with {@code headers}. */
    default PublishResult publish(String name, Object payload, Map<String, String> headers) {
        return publish(null, name, payload, headers);
    }

    /** Publishes {@code payload} under {@code name} for the caller's transaction {@code ctx}. */
    default PublishResult publish(DSLContext ctx, String name, Object payload) {
        return publish(ctx, name, payload, Map.of());
    }

    /** Sends bytes as they are, with their headers (a republished record): what a {@link Sender} does. */
    default void send(String name, byte[] payload, Map<String, String> headers) {
        publish(null, name, payload, headers);
    }
}
