package dev.tablequeue.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The settings of the broker the starter configures, under {@code tablequeue.*} in {@code application.yml}.
 *
 * <pre>{@code
 * tablequeue:
 *   poll-interval: 500ms      # how long an idle subscription waits before it claims again
 *   lease: 30s                # the lease of deliveries in the lease form
 *   drain-timeout: 20s        # how long the context's shutdown waits for handlers in work
 *   workers: 2                # deliveries at once, per queue, unless the queue's own setting says otherwise
 *   listen-notify: true       # PostgreSQL: a publish wakes the claims of every process at once
 *   queues:
 *     emails:                 # the queue's name (its group)
 *       workers: 8
 * }</pre>
 */
@ConfigurationProperties("tablequeue")
public class TableQueueProperties {
    /** Whether the starter configures a broker at all. */
    private boolean enabled = true;
    /** How long an idle subscription waits before it claims again, unless a publish wakes it. */
    private Duration pollInterval = Duration.ofSeconds(1);
    /** The lease of deliveries in the lease form (whole seconds, rounded up). */
    private Duration lease = Duration.ofSeconds(30);
    /** How long stopping the application context waits for the handlers in work to finish and settle. */
    private Duration drainTimeout = Duration.ofSeconds(30);
    /** How many deliveries of each queue run at once, where the queue sets no number of its own. */
    private int workers = 1;
    /** On PostgreSQL: listen for the notification each publish sends, on one connection of the pool. */
    private boolean listenNotify;
    /** The most connections the DataSource gives at once, where it does not say (a HikariCP pool does). */
    private Integer poolSize;
    /** Settings of single queues, by the queue's name; they win over what the handler bean configures. */
    private Map<String, Queue> queues = new LinkedHashMap<>();
    /** Settings of the Micrometer meters. */
    private final Metrics metrics = new Metrics();
    /** Settings of the dashboard mounted in the service (with {@code tablequeue-dashboard} on the class path). */
    private final Dashboard dashboard = new Dashboard();

    public Dashboard getDashboard() {
        return dashboard;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = positive(pollInterval, "poll-interval");
    }

    public Duration getLease() {
        return lease;
    }

    public void setLease(Duration lease) {
        this.lease = positive(lease, "lease");
    }

    public Duration getDrainTimeout() {
        return drainTimeout;
    }

    public void setDrainTimeout(Duration drainTimeout) {
        Objects.requireNonNull(drainTimeout, "drain-timeout");
        if (drainTimeout.isNegative()) {
            throw new IllegalArgumentException("tablequeue.drain-timeout must not be negative, was " + drainTimeout);
        }
        this.drainTimeout = drainTimeout;
    }

    public int getWorkers() {
        return workers;
    }

    public void setWorkers(int workers) {
        this.workers = atLeastOne(workers, "tablequeue.workers");
    }

    public boolean isListenNotify() {
        return listenNotify;
    }

    public void setListenNotify(boolean listenNotify) {
        this.listenNotify = listenNotify;
    }

    public Integer getPoolSize() {
        return poolSize;
    }

    public void setPoolSize(Integer poolSize) {
        this.poolSize = poolSize;
    }

    public Map<String, Queue> getQueues() {
        return queues;
    }

    public void setQueues(Map<String, Queue> queues) {
        this.queues = queues;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    private static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("tablequeue." + name + " must be positive, was " + d);
        }
        return d;
    }

    private static int atLeastOne(int n, String name) {
        if (n < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + n);
        }
        return n;
    }

    /** The settings of one queue, under {@code tablequeue.queues.<name>}. */
    public static class Queue {
        /** How many of the queue's deliveries run at once. */
        private Integer workers;
        /** How long the queue's idle subscription waits before it claims again. */
        private Duration pollInterval;
        /** The lease of the queue's deliveries (lease form). */
        private Duration lease;

        public Integer getWorkers() {
            return workers;
        }

        public void setWorkers(Integer workers) {
            this.workers = workers == null ? null : atLeastOne(workers, "tablequeue.queues.<name>.workers");
        }

        public Duration getPollInterval() {
            return pollInterval;
        }

        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval == null ? null : positive(pollInterval, "queues.<name>.poll-interval");
        }

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease == null ? null : positive(lease, "queues.<name>.lease");
        }
    }

    /** The settings of the meters, under {@code tablequeue.metrics}. */
    public static class Metrics {
        /** How often the row gauges (pending, scheduled, dead, oldest pending age) are read by one query per queue. */
        private Duration statsEvery = Duration.ofSeconds(30);

        public Duration getStatsEvery() {
            return statsEvery;
        }

        public void setStatsEvery(Duration statsEvery) {
            this.statsEvery = positive(statsEvery, "metrics.stats-every");
        }
    }

    /** The dashboard mounted in the service's servlet context. */
    public static class Dashboard {
        /** Whether the dashboard is mounted (default off: nothing is served). */
        private boolean enabled;
        /** The path it is mounted at; it ends with a slash, as the page's links are relative. */
        private String path = "/actuator/tablequeue/";
        /** Whether the page offers redrive, retry now, delete, pause and resume (default off: read-only). */
        private boolean actions;
        /** The page's heading. */
        private String title = "tablequeue";
        /** The Host values (host:port) the page answers to; empty leaves the Host check to the service. */
        private List<String> allowedHosts = new ArrayList<>();

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getPath() {
            return path;
        }

        public void setPath(String path) {
            Objects.requireNonNull(path, "dashboard.path");
            if (!path.startsWith("/") || !path.endsWith("/") || path.equals("/") || path.contains("*")) {
                throw new IllegalArgumentException("tablequeue.dashboard.path must start and end with / and name a"
                        + " path below the root, such as /actuator/tablequeue/; was " + path);
            }
            this.path = path;
        }

        public boolean isActions() {
            return actions;
        }

        public void setActions(boolean actions) {
            this.actions = actions;
        }

        public String getTitle() {
            return title;
        }

        public void setTitle(String title) {
            this.title = Objects.requireNonNull(title, "dashboard.title");
        }

        public List<String> getAllowedHosts() {
            return allowedHosts;
        }

        public void setAllowedHosts(List<String> allowedHosts) {
            this.allowedHosts = new ArrayList<>(allowedHosts);
        }
    }
}
