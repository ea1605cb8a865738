package dev.tablequeue.outbox;

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
     */
    void publish(DSLContext ctx, String name, Object payload, Map<String, String> headers);

    /** Publishes {@code payload} under {@code name}. */
    default void publish(String name, Object payload) {
        publish(null, name, payload, Map.of());
    }

    /** Publishes {@code payload} under {@code name} with {@code headers}. */
    default void publish(String name, Object payload, Map<String, String> headers) {
        publish(null, name, payload, headers);
    }

    /** Publishes {@code payload} under {@code name} for the caller's transaction {@code ctx}. */
    default void publish(DSLContext ctx, String name, Object payload) {
        publish(ctx, name, payload, Map.of());
    }

    /** Sends bytes as they are, with their headers (a republished record): what a {@link Sender} does. */
    default void send(String name, byte[] payload, Map<String, String> headers) {
        publish(null, name, payload, headers);
    }
}
