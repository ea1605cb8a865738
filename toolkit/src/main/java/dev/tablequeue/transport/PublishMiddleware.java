package dev.tablequeue.transport;

/**
 * Wraps the send of every message a transport publishes: it sees the message, may add headers, and calls
 * {@code next} to send it (or later, or not at all). What it throws reaches the caller of the publish.
 *
 * <p>Middlewares run in the order they were added to a transport: the first added sees the message first.
 * This SPI may still change before 1.0.
 */
@FunctionalInterface
public interface PublishMiddleware {

    /** Handles {@code message} on its way out; calling {@code next} passes it on toward the send. */
    void publish(OutgoingMessage message, Send next) throws Exception;

    /** The rest of the way: the next middleware, or the transport's own send. */
    @FunctionalInterface
    interface Send {
        void send(OutgoingMessage message) throws Exception;
    }
}
