package dev.tablequeue.outbox;

import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.transport.PublishMiddleware;
import java.util.List;
import javax.sql.DataSource;
import org.jooq.DSLContext;

/**
 * A transport as the outbox suite drives it: the table broker, the in-memory broker or RabbitMQ, with the
 * outbox's middlewares mounted and, inside the outbox's publish middleware, the test's own (a fault injector).
 * Subscriptions come first, then {@link #start()}, then publishes.
 */
public interface TestTransport extends AutoCloseable {

    /** Makes the transports of one kind for a test class. */
    interface Kind {
        /** A transport with {@code outbox}'s middlewares, then {@code inner} inside its publish middleware. */
        TestTransport open(Outbox outbox, List<PublishMiddleware> inner, DataSource pool, OutboxDatabase database,
                String suffix);

        String label();
    }

    /** Subscribes {@code handler} to the messages of {@code name}, one at a time. */
    <T> void subscribe(String name, Class<T> type, int workers, Handler<T> handler);

    void start();

    /**
     * Publishes {@code payload} under {@code name}, with the caller's transaction {@code ctx} or none (null), and
     * returns what the publish reports.
     */
    PublishResult publish(DSLContext ctx, String name, Object payload);

    /** What a second process needs to publish onto the same transport: the inbox table, the exchange. */
    String handle();

    /** What the republish sends records again through. */
    Sender sender();

    @Override
    void close();
}
