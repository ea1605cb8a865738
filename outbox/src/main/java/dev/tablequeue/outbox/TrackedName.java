package dev.tablequeue.outbox;

/**
 * A name the outbox tracks, as a type of the service's own (an enum of its topics, typically), for a
 * registration the compiler checks: {@code Outbox.builder(pool).track(Topics.ORDERS, ORDERS_OUTBOX)}.
 */
public interface TrackedName {
    /** The name messages are published under. */
    String outboxName();
}
