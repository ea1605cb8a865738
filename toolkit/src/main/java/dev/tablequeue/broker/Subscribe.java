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
    /** The name a by-name subscription was opened by; null for one of an {@link InboxQueue}. */
    private final String byName;

    Subscribe(QueueBroker broker, InboxQueue<R> queue, String byName) {
        this.broker = broker;
        this.queue = queue;
        this.byName = byName;
    }

    /** Payload mode: the handler takes the payload decoded by the broker's codec into a {@code type}. */
    public <T> Mount<T> payload(Class<T> type) {
        return new Mount<>(broker, queue, type, false, byName);
    }

    /** Payload mode with the payload's bytes as they are. */
    public Mount<byte[]> bytes() {
        return new Mount<>(broker, queue, byte[].class, false, byName);
    }

    /** Row mode: the handler takes the row, as a record of the table. */
    public Mount<R> rows() {
        @SuppressWarnings("unchecked")
        Class<R> type = (Class<R>) queue.binding().table().getRecordType();
        return new Mount<>(broker, queue, type, true, byName);
    }
}
