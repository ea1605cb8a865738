package dev.tablequeue.outbox.memory;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.broker.Codec;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.Envelope;
import dev.tablequeue.outbox.HandlerRun;
import dev.tablequeue.outbox.MessagePublisher;
import dev.tablequeue.outbox.TransportBuilder;
import dev.tablequeue.transport.Middlewares;
import dev.tablequeue.transport.OutgoingMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.DSLContext;

/**
 * A broker in the memory of one process, for tests and single-process services: a queue per name, a
 * subscription per name whose workers run each handler on a virtual thread, and the same middlewares as
 * every transport. A retried message goes back to its queue (after its delay); a handler that throws is
 * retried. What is queued is lost with the process: the outbox's republish is what brings it back.
 */
public final class MemoryBroker implements MessagePublisher, AutoCloseable {
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
        this.codec = b.codecSetting();
        this.middlewares = b.middlewares();
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public PublishResult publish(DSLContext ctx, String name, Object payload, Map<String, String> headers) {
        Envelope message = new Envelope(name, payload, headers, codec, ctx);
        try {
            middlewares.publish(message, this::enqueue);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TableQueueException("publish of " + name + " failed: " + e.getMessage(), e);
        }
        return message.result();
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
                settle(queue, d, HandlerRun.outcome(codec, middlewares, d.name(), d, d.payload(), type, handler));
            }
        }
    }

    private void settle(LinkedBlockingQueue<MemoryDelivery> queue, MemoryDelivery d, Outcome outcome) {
        switch (outcome) {
            case Outcome.Ack a -> { }
            case Outcome.Drop x -> { }
            // the in-memory broker keeps no dead letter: the message is finished, as a drop finishes it
            case Outcome.DeadLetter x -> { }
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

    /** Configures a {@link MemoryBroker}: its codec and its middlewares. */
    public static final class Builder extends TransportBuilder<Builder> {
        private Builder() {}

        public MemoryBroker build() {
            return new MemoryBroker(this);
        }
    }
}
