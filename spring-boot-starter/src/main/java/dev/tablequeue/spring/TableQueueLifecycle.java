package dev.tablequeue.spring;

import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ShutdownReport;
import dev.tablequeue.broker.Subscribe;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the broker with the application context, once every {@link QueueHandler} bean is subscribed, and
 * closes it when the context stops: claiming ends, and the stop waits up to {@code tablequeue.drain-timeout}
 * for the handlers in work to finish and settle before the context goes on to close the DataSource.
 *
 * <p>Its phase ({@link #PHASE}) is below a web server's, so the broker starts before the server takes
 * requests and stops after it has stopped taking them: a request that publishes finds the broker open.
 */
public final class TableQueueLifecycle implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(TableQueueLifecycle.class);

    /** Below the phases of Boot's web server and its graceful shutdown. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final QueueBroker broker;
    private final List<QueueHandler<?>> handlers;
    private final List<QueueBrokerCustomizer> customizers;
    private final TableQueueProperties properties;
    private volatile ShutdownReport shutdown;

    /** The lifecycle of {@code broker}, serving {@code handlers} with {@code properties}. */
    public TableQueueLifecycle(QueueBroker broker, List<QueueHandler<?>> handlers,
            List<QueueBrokerCustomizer> customizers, TableQueueProperties properties) {
        this.broker = broker;
        this.handlers = List.copyOf(handlers);
        this.customizers = List.copyOf(customizers);
        this.properties = properties;
    }

    /**
     * Subscribes every handler, runs the customizers' {@link QueueBrokerCustomizer#subscribed}, then starts the
     * broker, which prepares every statement on the server: a table or column the database lacks fails the
     * context's start here.
     */
    @Override
    public void start() {
        for (QueueHandler<?> handler : handlers) {
            subscribe(handler);
        }
        for (QueueBrokerCustomizer customizer : customizers) {
            customizer.subscribed(broker);
        }
        broker.start();
    }

    private <T> void subscribe(QueueHandler<T> handler) {
        InboxQueue<?> queue = handler.queue();
        Mount<T> mount = mount(queue, handler.messageType());
        mount.workers(properties.getWorkers());
        handler.configure(mount);
        TableQueueProperties.Queue own = properties.getQueues().get(queue.name());
        if (own != null) {
            if (own.getWorkers() != null) {
                mount.workers(own.getWorkers());
            }
            if (own.getPollInterval() != null) {
                mount.pollInterval(own.getPollInterval());
            }
            if (own.getLease() != null) {
                mount.lease(own.getLease());
            }
        }
        mount.handle(handler);
        LOG.debug("tablequeue handler {} subscribed to {}", handler.getClass().getName(), queue);
    }

    /** The mount of {@code queue} for handlers of {@code type}: the payload as it is, the row, or the decoded payload. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private <T> Mount<T> mount(InboxQueue<?> queue, Class<T> type) {
        Subscribe<?> subscribe = broker.subscribe((InboxQueue) queue);
        if (type == byte[].class) {
            return (Mount<T>) subscribe.bytes();
        }
        if (org.jooq.Record.class.isAssignableFrom(type)) {
            return (Mount<T>) subscribe.rows();
        }
        return subscribe.payload(type);
    }

    /** Closes the broker: waits for the handlers in work up to the drain timeout, then releases what they hold. */
    @Override
    public void stop() {
        shutdown = broker.close();
    }

    @Override
    public boolean isRunning() {
        return broker.isRunning();
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** What the broker's close released, once the context has stopped it; null before. */
    public ShutdownReport shutdownReport() {
        return shutdown;
    }
}
