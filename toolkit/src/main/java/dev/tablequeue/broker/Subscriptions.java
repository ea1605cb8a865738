package dev.tablequeue.broker;

import dev.tablequeue.AlreadySubscribedException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Role;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A broker's subscriptions, one per table and group, and the sequences that run them together: registered
 * while the broker is configured; at start opened on one connection (nothing starts where one fails to open),
 * then the notification listener, then their claim loops; at close stopped, drained, and the listener last.
 * The broker keeps its lifecycle state and calls these once each.
 */
final class Subscriptions {
    private final QueueBroker broker;
    private final Map<String, Subscription<?>> byQueue = new LinkedHashMap<>();
    private final List<Subscription<?>> started = new CopyOnWriteArrayList<>();
    private volatile NotifyListener notifications;

    Subscriptions(QueueBroker broker) {
        this.broker = broker;
    }

    /** The started subscriptions, a list that grows as they start: what the broker's wake-ups reach. */
    List<Subscription<?>> started() {
        return started;
    }

    /**
     * Registers the subscription of {@code queue}.
     *
     * @throws AlreadySubscribedException if the broker already serves the queue's table and group
     */
    void add(InboxQueue<?> queue, Subscription<?> subscription) {
        requireAbsent(queue);
        byQueue.put(key(queue), subscription);
    }

    /** @throws AlreadySubscribedException if the broker already serves the queue's table and group */
    void requireAbsent(InboxQueue<?> queue) {
        if (byQueue.containsKey(key(queue))) {
            throw new AlreadySubscribedException("queue " + queue + " already has a subscription on this broker"
                    + " (one subscription per table and group)");
        }
    }

    /** @throws IllegalArgumentException if the broker has no subscription to {@code queue} */
    Subscription<?> of(InboxQueue<?> queue) {
        Subscription<?> s = byQueue.get(key(queue));
        if (s == null) {
            throw new IllegalArgumentException("this broker has no subscription to queue " + queue);
        }
        return s;
    }

    private static String key(InboxQueue<?> queue) {
        String group = queue.binding().has(Role.GROUP) ? queue.name() : "";
        return queue.binding().tableName() + "\u0000" + group;
    }

    /** The served queues, in the order they were subscribed. */
    List<ServedQueue> served() {
        List<ServedQueue> queues = new ArrayList<>();
        for (Subscription<?> s : byQueue.values()) {
            queues.add(s.served());
        }
        return List.copyOf(queues);
    }

    /**
     * Opens every subscription and prepares the inserts publishes run, on one connection, then starts the
     * notification listener (where the broker listens) and every claim loop; returns how many started.
     */
    int start(BrokerInserts inserts, Map<String, QueueBroker.Route> routes) {
        List<Subscription<?>> opened = new ArrayList<>();
        try (Connection c = broker.dataSource.getConnection()) {
            for (Subscription<?> s : byQueue.values()) {
                s.open(c);
                opened.add(s);
            }
            inserts.prepare(c, byQueue.values(), routes);
        } catch (SQLException e) {
            throw new TableQueueException("cannot open subscriptions: " + e.getMessage(), e);
        }
        if (broker.listenNotify) {
            notifications = new NotifyListener(broker, opened);
            notifications.start();
        }
        for (Subscription<?> s : opened) {
            s.start();
            started.add(s);
        }
        return opened.size();
    }

    /** Whether the notification listener holds its connection with every LISTEN in place. */
    boolean listening() {
        NotifyListener listener = notifications;
        return listener != null && listener.connected();
    }

    /**
     * Stops every started subscription's claims, drains each until {@code drainTimeout} from now, then stops
     * the listener; reports what the drains released and closed.
     */
    ShutdownReport close(Duration drainTimeout) {
        for (Subscription<?> s : started) {
            s.stop();
        }
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        int locks = 0;
        int closed = 0;
        int abandoned = 0;
        for (Subscription<?> s : started) {
            Subscription.Drain drain = s.drain(deadline);
            locks += drain.locksReleased();
            closed += drain.connectionsClosed();
            abandoned += drain.abandoned();
        }
        if (notifications != null) {
            notifications.stop();
        }
        return new ShutdownReport(locks, closed, abandoned);
    }
}
