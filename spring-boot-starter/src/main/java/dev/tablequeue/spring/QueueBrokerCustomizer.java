package dev.tablequeue.spring;

import dev.tablequeue.broker.QueueBroker;

/**
 * Adjusts the broker the starter configures, where {@code tablequeue.*} has no setting: declare it as a bean.
 */
public interface QueueBrokerCustomizer {

    /** Sets what the properties do not: routes, middlewares, a codec, a clock. Runs before {@code build()}. */
    default void customize(QueueBroker.Builder builder) {}

    /**
     * Runs once every {@link QueueHandler} bean is subscribed, just before the broker starts: to subscribe
     * more, or to bind to the queues the broker serves (the Micrometer binding does).
     */
    default void subscribed(QueueBroker broker) {}
}
