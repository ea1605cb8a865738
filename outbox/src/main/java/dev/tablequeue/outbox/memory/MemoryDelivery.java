package dev.tablequeue.outbox.memory;

import dev.tablequeue.broker.Delivery;
import java.util.Map;
import java.util.OptionalInt;
import org.jooq.DSLContext;

/** A message of the in-memory broker in a handler's hands. */
record MemoryDelivery(long sequence, String name, byte[] payload, Map<String, String> headers, int delivery)
        implements Delivery {

    MemoryDelivery again() {
        return new MemoryDelivery(sequence, name, payload, headers, delivery + 1);
    }

    @Override
    public Object id() {
        return sequence;
    }

    @Override
    public String queue() {
        return name;
    }

    @Override
    public OptionalInt attempt() {
        return OptionalInt.of(delivery);
    }

    @Override
    public Object partitionKey() {
        return null;
    }

    /** An in-memory delivery has no database of its own. */
    @Override
    public DSLContext db() {
        throw new UnsupportedOperationException("a delivery of the in-memory broker has no database");
    }

    @Override
    public String toString() {
        return "message " + sequence + " of " + name;
    }
}
