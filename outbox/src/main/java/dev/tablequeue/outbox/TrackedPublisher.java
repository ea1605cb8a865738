package dev.tablequeue.outbox;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.Codec;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * A send of the service's own (a client a transport hands out without its middlewares, or another service's
 * API called from an HTTP endpoint) with the outbox's tracking around it: what {@link Outbox#wrap} gives. A
 * message of a registered name is recorded first and carries its record's id, exactly as through a
 * transport that mounts {@link Outbox#publishMiddleware()}.
 */
public final class TrackedPublisher {
    private final Outbox outbox;
    private final Sender sender;
    private final Codec codec;

    TrackedPublisher(Outbox outbox, Sender sender, Codec codec) {
        this.outbox = outbox;
        this.sender = sender;
        this.codec = codec;
    }

    /** Publishes {@code payload} under {@code name}: the record commits on its own, then the send runs. */
    public void publish(String name, Object payload) {
        publish(null, name, payload, Map.of());
    }

    /** Publishes {@code payload} under {@code name} for the caller's transaction: the send follows its commit. */
    public void publish(DSLContext ctx, String name, Object payload) {
        publish(ctx, name, payload, Map.of());
    }

    /** Publishes with {@code headers}, for the caller's transaction {@code ctx} (or none: null). */
    public void publish(DSLContext ctx, String name, Object payload, Map<String, String> headers) {
        Envelope message = new Envelope(name, payload, headers, codec, ctx);
        try {
            outbox.publishMiddleware().publish(message, m -> sender.send(m.name(), m.payload(), m.headers()));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TableQueueException("publish of " + name + " failed: " + e.getMessage(), e);
        }
    }
}
