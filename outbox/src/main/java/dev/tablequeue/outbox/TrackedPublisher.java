package dev.tablequeue.outbox;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.Codec;
import dev.tablequeue.broker.PublishResult;
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
    public PublishResult publish(String name, Object payload) {
        return publish(null, name, payload, Map.of());
    }

    /** Publishes {@code payload} under {@code name} for the caller's transaction: the send follows its commit. */
    public PublishResult publish(DSLContext ctx, String name, Object payload) {
        return publish(ctx, name, payload, Map.of());
    }

    /**
     * Publishes with {@code headers}, for the caller's transaction {@code ctx} (or none: null).
     *
     * @return the record written (its id; {@link PublishResult#deferred()} where the send waits for the
     *     commit), or {@link PublishResult#noRow()} for a name the outbox does not track
     */
    public PublishResult publish(DSLContext ctx, String name, Object payload, Map<String, String> headers) {
        Envelope message = new Envelope(name, payload, headers, codec, ctx);
        try {
            outbox.publishMiddleware().publish(message, m -> sender.send(m.name(), m.payload(), m.headers()));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TableQueueException("publish of " + name + " failed: " + e.getMessage(), e);
        }
        return message.result();
    }
}
