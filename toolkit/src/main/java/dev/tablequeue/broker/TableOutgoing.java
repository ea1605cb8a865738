package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.transport.OutgoingMessage;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * A publish into a queue table as the publish middlewares see it. A header a middleware adds goes onto the
 * message itself, so the row's insert writes it; with the caller's context the insert joins its transaction.
 */
final class TableOutgoing implements OutgoingMessage {
    private final Message message;
    private final DSLContext transaction;
    private final Codec codec;
    private byte[] payload;

    TableOutgoing(Message message, DSLContext transaction, Codec codec) {
        this.message = message;
        this.transaction = transaction;
        this.codec = codec;
    }

    @Override
    public String name() {
        return message.name();
    }

    @Override
    public byte[] payload() {
        if (payload == null && message.payload() != null) {
            try {
                payload = codec.encode(message.payload());
            } catch (Exception e) {
                throw new TableQueueException("the payload of " + message.name() + " does not encode: "
                        + e.getMessage(), e);
            }
        }
        return payload;
    }

    @Override
    public Map<String, String> headers() {
        return message.headers();
    }

    @Override
    public void header(String key, String value) {
        message.header(key, value);
    }

    @Override
    public DSLContext transaction() {
        return transaction;
    }

    @Override
    public boolean sendJoinsTransaction() {
        return transaction != null;
    }
}
