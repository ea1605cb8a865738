package dev.tablequeue.outbox;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.Codec;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.transport.OutgoingMessage;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * A message on its way to a transport that leaves the database (the in-memory broker, RabbitMQ): its name,
 * its payload encoded once, its headers, and the caller's transaction, which its send never joins.
 */
public final class Envelope implements OutgoingMessage {
    private final String name;
    private final Object payload;
    private final Codec codec;
    private final Map<String, String> headers;
    private final DSLContext transaction;
    private final boolean confirming;
    private byte[] encoded;
    private String recordTable;
    private Object recordId;
    private boolean afterCommit;

    /** A message of {@code name} carrying {@code payload} (bytes as they are, anything else through {@code codec}). */
    public Envelope(String name, Object payload, Map<String, String> headers, Codec codec, DSLContext transaction) {
        this(name, payload, headers, codec, transaction, false);
    }

    /**
     * As {@link #Envelope(String, Object, Map, Codec, DSLContext)}, for a transport whose send returns only once
     * the broker confirmed the message ({@code confirming}): the outbox then marks a record done on that return,
     * unless its binding says {@link DoneWhen#ACKNOWLEDGED}.
     */
    public Envelope(String name, Object payload, Map<String, String> headers, Codec codec, DSLContext transaction,
            boolean confirming) {
        this.confirming = confirming;
        this.name = name;
        this.payload = payload;
        this.codec = codec;
        this.headers = new LinkedHashMap<>(headers);
        this.transaction = transaction;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public byte[] payload() {
        if (encoded == null) {
            try {
                encoded = payload == null ? new byte[0] : codec.encode(payload);
            } catch (Exception e) {
                throw new TableQueueException("the payload of " + name + " does not encode: " + e.getMessage(), e);
            }
        }
        return encoded;
    }

    @Override
    public Map<String, String> headers() {
        return Collections.unmodifiableMap(headers);
    }

    @Override
    public void header(String key, String value) {
        headers.put(key, value);
    }

    @Override
    public DSLContext transaction() {
        return transaction;
    }

    /** Whether the send returns only once the broker confirmed the message (RabbitMQ, Kafka). */
    public boolean confirming() {
        return confirming;
    }

    @Override
    public boolean sendJoinsTransaction() {
        return false;
    }

    @Override
    public void recorded(String table, Object id) {
        this.recordTable = table;
        this.recordId = id;
    }

    @Override
    public void sendsAfterCommit() {
        this.afterCommit = true;
    }

    /**
     * What the publish of this message did, once the middlewares have run: the outbox's record where one was
     * written (its id, and whether the send waits for the commit), else no row.
     */
    public PublishResult result() {
        if (recordTable == null) {
            return PublishResult.noRow();
        }
        return afterCommit ? PublishResult.insertedSentAfterCommit(recordTable, recordId)
                : PublishResult.inserted(recordTable, recordId);
    }
}
