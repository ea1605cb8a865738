package dev.tablequeue.broker;

/**
 * Handles one message and answers its outcome. A handler that throws is settled by the subscription's
 * handler failure policy.
 *
 * @param <T> the message: a decoded payload, or the row in row mode
 */
@FunctionalInterface
public interface Handler<T> {
    Outcome handle(T message, Delivery delivery) throws Exception;
}
