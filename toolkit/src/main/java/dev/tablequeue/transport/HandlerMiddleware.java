package dev.tablequeue.transport;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;

/**
 * Wraps every handler call of a transport's subscriptions: it sees the delivery and its headers, and answers
 * the outcome, calling {@code next} to run the handler (or answering without it). A throw is settled as the
 * handler's own throw would be.
 *
 * <p>Middlewares run in the order they were added to a transport: the first added is the outermost. This SPI
 * may still change before 1.0.
 */
@FunctionalInterface
public interface HandlerMiddleware {

    /**
     * Handles {@code delivery} of a message published under {@code name}; {@code next} runs the rest of the
     * chain and the handler.
     */
    Outcome handle(String name, Delivery delivery, Next next) throws Exception;

    /** The rest of the way: the next middleware, or the handler. */
    @FunctionalInterface
    interface Next {
        Outcome call() throws Exception;
    }
}
