package dev.tablequeue.broker;

import dev.tablequeue.dialect.Notifications;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens for notifications (PostgreSQL's, through the dialect's {@code listen}) on one connection of the pool, kept for the broker's life, and wakes
 * the subscriptions of each notified table and group. A lost connection is opened again, and every
 * subscription is woken once, since a notification sent meanwhile is gone.
 */
final class NotifyListener {
    private static final Logger LOG = LoggerFactory.getLogger(NotifyListener.class);
    private static final int WAIT_MILLIS = 500;

    private final QueueBroker broker;
    private final Set<String> channels = new LinkedHashSet<>();
    private volatile boolean running;
    /** Whether the listener holds its connection with every LISTEN in place. */
    private volatile boolean connected;
    /** Counted down by {@link #stop()}, so a backoff ends as soon as the broker closes. */
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Counted down once the first LISTEN is in place, so a row published after start() is announced. */
    private final CountDownLatch listening = new CountDownLatch(1);
    private Thread thread;

    NotifyListener(QueueBroker broker, List<Subscription<?>> subscriptions) {
        this.broker = broker;
        for (Subscription<?> s : subscriptions) {
            channels.add(s.channel());
        }
    }

    void start() {
        broker.budget.reserve(1);
        running = true;
        thread = Threads.platform("tablequeue-listen").newThread(this::listen);
        thread.start();
        try {
            if (!listening.await(10, TimeUnit.SECONDS)) {
                LOG.warn("the notification listener is not listening yet; until it is, the poll interval finds rows");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the listener holds its connection with every LISTEN in place. */
    boolean connected() {
        return connected;
    }

    void stop() {
        running = false;
        stopped.countDown();
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void listen() {
        long backoff = 0;
        boolean lost = false;
        while (running) {
            try (Connection c = broker.dataSource.getConnection()) {
                Notifications notifications = broker.dialect.notifications().listen(c, channels);
                connected = true;
                listening.countDown();
                if (lost) {
                    broker.wakeups.wakeAll();
                }
                backoff = 0;
                while (running) {
                    for (Notifications.Notification n : notifications.poll(WAIT_MILLIS)) {
                        broker.wakeups.wakeChannel(n.channel(), n.payload());
                    }
                }
                connected = false;
                notifications.unlisten();
            } catch (SQLException | RuntimeException e) {
                connected = false;
                if (!running) {
                    return;
                }
                lost = true;
                backoff = Math.min(Math.max(100, backoff * 2), 10_000);
                LOG.warn("the notification listener lost its connection, listening again in {} ms: {}", backoff,
                        e.toString());
                try {
                    if (stopped.await(backoff, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }
}
