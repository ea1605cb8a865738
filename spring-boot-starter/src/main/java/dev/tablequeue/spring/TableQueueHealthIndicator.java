package dev.tablequeue.spring;

import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.QueueStats;
import dev.tablequeue.broker.ServedQueue;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The broker's health, as Boot's health endpoint shows it ({@code tablequeue}): UP while the broker runs,
 * every subscription claims and, with {@code tablequeue.listen-notify}, the listener holds its connection;
 * DOWN otherwise, or where the queues' stats cannot be read. The details name what is wrong and, per queue,
 * the rows pending and the oldest pending row's age, read by one {@link QueueAdmin#stats} query per queue at
 * each health check.
 */
public final class TableQueueHealthIndicator implements HealthIndicator {
    private final QueueBroker broker;
    private final QueueAdmin admin;
    private final SubscriptionWatch watch;
    private final boolean listenNotify;

    /** The health of {@code broker}, whose listener reports to {@code watch}. */
    public TableQueueHealthIndicator(QueueBroker broker, SubscriptionWatch watch, boolean listenNotify) {
        this.broker = broker;
        this.admin = QueueAdmin.of(broker);
        this.watch = watch;
        this.listenNotify = listenNotify;
    }

    @Override
    public Health health() {
        boolean running = broker.isRunning();
        boolean up = running;
        Health.Builder health = new Health.Builder().withDetail("running", running);
        if (listenNotify) {
            boolean listening = broker.isListening();
            health.withDetail("listening", listening);
            up &= listening;
        }
        Map<String, String> stopped = watch.stopped();
        if (!stopped.isEmpty()) {
            health.withDetail("stopped", stopped);
            up = false;
        }
        if (running) {
            Map<String, Object> queues = new LinkedHashMap<>();
            for (ServedQueue served : broker.queues()) {
                try {
                    QueueStats stats = admin.stats(served.queue());
                    Map<String, Object> queue = new LinkedHashMap<>();
                    queue.put("pending", stats.pending());
                    queue.put("scheduled", stats.scheduled());
                    stats.inWork().ifPresent(n -> queue.put("inWork", n));
                    stats.dead().ifPresent(n -> queue.put("dead", n));
                    stats.oldestPendingAge().ifPresent(age -> queue.put("oldestPendingAge", age.toString()));
                    queues.put(served.queue().toString(), queue);
                } catch (RuntimeException e) {
                    queues.put(served.queue().toString(), Map.of("error", String.valueOf(e.getMessage())));
                    up = false;
                }
            }
            health.withDetail("queues", queues);
        }
        return (up ? health.up() : health.down()).build();
    }
}
