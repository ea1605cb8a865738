package dev.tablequeue.broker;

import org.jooq.Record;

/**
 * The first step of a subscription: what its handler takes.
 *
 * @param <R> the table's record type
 */
public final class Subscribe<R extends Record> {
    private final QueueBroker broker;
    private final InboxQueue<R> queue;

    Subscribe(QueueBroker broker, InboxQueue<R> queue) {
        this.broker = broker;
        this.queue = queue;
    }

    /** Payload mode: the handler takes the payload decoded by the broker's codec into a {@code type}. */
    public <T> Mount<T> payload(Class<T> type) {
        return new Mount<>(broker, queue, type, false);
    }

    /** Payload mode with the payload's bytes as they are. */
    public Mount<byte[]> bytes() {
        return new Mount<>(broker, queue, byte[].class, false);
    }

    /** Row mode: the handler takes the row, as a record of the table. */
    public Mount<R> rows() {
        @SuppressWarnings("unchecked")
        Class<R> type = (Class<R>) queue.binding().table().getRecordType();
        return new Mount<>(broker, queue, type, true);
    }
}
