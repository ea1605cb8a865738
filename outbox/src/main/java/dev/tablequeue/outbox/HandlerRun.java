package dev.tablequeue.outbox;

import dev.tablequeue.broker.Codec;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.transport.Middlewares;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One handler call of a transport that leaves the database: the payload decoded (a payload that does not
 * decode is dropped), the handler run inside the handler middlewares, and a handler that throws or answers
 * nothing retried.
 */
public final class HandlerRun {
    private static final Logger LOG = LoggerFactory.getLogger(HandlerRun.class);

    private HandlerRun() {}

    /** The outcome of {@code delivery} of a message published under {@code name}, with {@code body} as payload. */
    public static <T> Outcome outcome(Codec codec, Middlewares middlewares, String name, Delivery delivery,
            byte[] body, Class<T> type, Handler<T> handler) {
        T message;
        try {
            message = codec.decode(body, type);
        } catch (Exception e) {
            LOG.warn("{} does not decode, dropped: {}", delivery, e.toString());
            return Outcome.drop();
        }
        try {
            Outcome outcome = middlewares.handles()
                    ? middlewares.handle(name, delivery, () -> handler.handle(message, delivery))
                    : handler.handle(message, delivery);
            return outcome == null ? Outcome.retry() : outcome;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.retry();
        } catch (Exception | Error e) {
            LOG.warn("the handler of {} failed on {}, retried: {}", name, delivery, e.toString());
            return Outcome.retry();
        }
    }
}
