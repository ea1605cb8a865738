package dev.tablequeue.outbox.memory;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.Codec;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.JacksonCodec;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.Envelope;
import dev.tablequeue.transport.HandlerMiddleware;
import dev.tablequeue.transport.Middlewares;
import dev.tablequeue.transport.OutgoingMessage;
import dev.tablequeue.transport.PublishMiddleware;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker in the memory of one process, for tests and single-process services: a queue per name, a
 * subscription per name whose workers run each handler on a virtual thread, and the same middlewares as
 * every transport. A retried message goes back to its queue (after its delay); a handler that throws is
 * retried. What is queued is lost with the process: the outbox's republish is what brings it back.
 */
public final class MemoryBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryBroker.class);

    private final Codec codec;
    private final Middlewares middlewares;
    private final Map<String, LinkedBlockingQueue<MemoryDelivery>> queues = new ConcurrentHashMap<>();
    private final Map<String, Boolean> subscribed = new ConcurrentHashMap<>();
    private final List<Thread> workers = new ArrayList<>();
    private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tablequeue-memory-delays");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean closed;

    private MemoryBroker(Builder b) {
        this.codec = b.codec;
        this.middlewares = new Middlewares(b.publish, b.handler);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Publishes {@code payload} under {@code name}. */
    public void publish(String name, Object payload) {
        publish(null, name, payload, Map.of());
    }

    /** Publishes {@code payload} under {@code name} with {@code headers}. */
    public void publish(String name, Object payload, Map<String, String> headers) {
        publish(null, name, payload, headers);
    }

    /**
     * Publishes {@code payload} under {@code name} for the caller's transaction {@code ctx}: the outbox writes
     * its record in it and sends once it commits.
     */
    public void publish(DSLContext ctx, String name, Object payload) {
        publish(ctx, name, payload, Map.of());
    }

    private void publish(DSLContext ctx, String name, Object payload, Map<String, String> headers) {
        Envelope message = new Envelope(name, payload, headers, codec, ctx);
        try {
            middlewares.publish(message, this::enqueue);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TableQueueException("publish of " + name + " failed: " + e.getMessage(), e);
        }
    }

    /** Sends bytes as they are (a republished record, say), through the publish middlewares. */
    public void send(String name, byte[] payload, Map<String, String> headers) {
        publish(null, name, payload, headers);
    }

    private void enqueue(OutgoingMessage m) {
        if (closed) {
            throw new TableQueueException("the memory broker is closed: cannot publish " + m.name());
        }
        queue(m.name()).add(new MemoryDelivery(ids.incrementAndGet(), m.name(), m.payload(), Map.copyOf(m.headers()), 1));
    }

    private LinkedBlockingQueue<MemoryDelivery> queue(String name) {
        return queues.computeIfAbsent(name, n -> new LinkedBlockingQueue<>());
    }

    /** How many messages of {@code name} wait in its queue (not those in a handler). */
    public int queued(String name) {
        return queue(name).size();
    }

    /**
     * Subscribes {@code handler} to {@code name} with {@code workers} handlers at once; the payload is decoded
     * into a {@code type} ({@code byte[]} takes it as it is).
     */
    public synchronized <T> void subscribe(String name, Class<T> type, int workers, Handler<T> handler) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers + " (" + name + ")");
        }
        if (subscribed.putIfAbsent(name, Boolean.TRUE) != null) {
            throw new IllegalStateException("\"" + name + "\" already has a subscription on this memory broker");
        }
        LinkedBlockingQueue<MemoryDelivery> queue = queue(name);
        for (int i = 0; i < workers; i++) {
            workers(Thread.ofVirtual().name("tablequeue-memory-" + name + "-" + i).start(() -> work(queue, type,
                    handler)));
        }
    }

    private void workers(Thread t) {
        workers.add(t);
    }

    private <T> void work(LinkedBlockingQueue<MemoryDelivery> queue, Class<T> type, Handler<T> handler) {
        while (!closed) {
            MemoryDelivery d;
            try {
                d = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (d != null) {
                settle(queue, d, outcome(d, type, handler));
            }
        }
    }

    private <T> Outcome outcome(MemoryDelivery d, Class<T> type, Handler<T> handler) {
        T message;
        try {
            message = codec.decode(d.payload(), type);
        } catch (Exception e) {
            LOG.warn("{} does not decode, dropped: {}", d, e.toString());
            return Outcome.drop();
        }
        try {
            Outcome outcome = middlewares.handles()
                    ? middlewares.handle(d.name(), d, () -> handler.handle(message, d))
                    : handler.handle(message, d);
            return outcome == null ? Outcome.retry() : outcome;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.retry();
        } catch (Exception | Error e) {
            LOG.warn("the handler of {} failed on {}, retried: {}", d.name(), d, e.toString());
            return Outcome.retry();
        }
    }

    private void settle(LinkedBlockingQueue<MemoryDelivery> queue, MemoryDelivery d, Outcome outcome) {
        switch (outcome) {
            case Outcome.Ack a -> { }
            case Outcome.Drop x -> { }
            case Outcome.Retry r -> queue.add(d.again());
            case Outcome.RetryAfter r -> delays.schedule(() -> queue.add(d.again()), r.delay().toNanos(),
                    TimeUnit.NANOSECONDS);
        }
    }

    /** Stops the workers; what is queued is dropped. */
    @Override
    public synchronized void close() {
        closed = true;
        delays.shutdownNow();
        for (Thread t : workers) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Configures a {@link MemoryBroker}. */
    public static final class Builder {
        private Codec codec = new JacksonCodec();
        private final List<PublishMiddleware> publish = new ArrayList<>();
        private final List<HandlerMiddleware> handler = new ArrayList<>();

        private Builder() {}

        /** The codec of payloads (default JSON through Jackson). */
        public Builder codec(Codec codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        /** Wraps every publish; middlewares run in the order added, the first outermost. */
        public Builder publishMiddleware(PublishMiddleware middleware) {
            publish.add(Objects.requireNonNull(middleware, "middleware"));
            return this;
        }

        /** Wraps every handler call; middlewares run in the order added, the first outermost. */
        public Builder handlerMiddleware(HandlerMiddleware middleware) {
            handler.add(Objects.requireNonNull(middleware, "middleware"));
            return this;
        }

        public MemoryBroker build() {
            return new MemoryBroker(this);
        }
    }
}
