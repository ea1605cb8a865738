package dev.tablequeue.micrometer;

import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ScheduleState;
import dev.tablequeue.broker.ServedQueue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micrometer meters of the queues a broker serves, each tagged {@code table} and {@code queue}.
 *
 * <p>Counted from the broker's {@link BrokerListener} callbacks, as they happen:
 * <ul>
 *   <li>{@code tablequeue.deliveries.claimed}: rows taken into work;
 *   <li>{@code tablequeue.deliveries.settled}, tagged {@code outcome}: outcomes written, {@code acknowledged},
 *       {@code retried}, {@code dropped} or {@code dead_lettered} (a retry that spent the last attempt counts as
 *       dead-lettered only);
 *   <li>{@code tablequeue.deliveries.settlement.failures}: outcomes that could not be written;
 *   <li>{@code tablequeue.deliveries.decode.failures}: rows that did not decode;
 *   <li>{@code tablequeue.leases.lost}: deliveries whose lease was lost, once each;
 *   <li>{@code tablequeue.handler} (timer): how long decoding and the handler took;
 *   <li>{@code tablequeue.claims} (timer): claim round trips, those that found nothing included.
 * </ul>
 *
 * <p>Gauges, for every queue of a broker given to {@link #bind}: {@code tablequeue.deliveries.in.work}, read
 * from the broker at each scrape; and, read by one periodic {@link QueueAdmin#stats} query per queue (every
 * {@link Builder#statsEvery}, not per message), {@code tablequeue.rows.pending}, {@code tablequeue.rows.scheduled},
 * {@code tablequeue.rows.pending.age} (a time gauge: the oldest pending row's age, 0 where none is pending),
 * and {@code tablequeue.rows.dead} where the subscription declares a dead letter.
 *
 * <p>Gauges, for every schedule of a bound broker (tagged {@code schedule}, {@code table}, {@code queue}), read from
 * the broker at each scrape: {@code tablequeue.schedule.last} and {@code tablequeue.schedule.next}, the newest
 * instant the broker knows in the table and the next it will publish, in seconds since the epoch (NaN where none).
 *
 * <pre>{@code
 * TableQueueMetrics metrics = TableQueueMetrics.builder(registry).build();
 * QueueBroker broker = QueueBroker.builder(dataSource).listener(metrics).build();
 * broker.subscribe(..)...;
 * metrics.bind(broker);
 * broker.start();
 * ...
 * metrics.close();
 * }</pre>
 */
public final class TableQueueMetrics implements BrokerListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableQueueMetrics.class);

    private final MeterRegistry registry;
    private final Duration statsEvery;
    private final Map<String, QueueMeters> meters = new ConcurrentHashMap<>();
    private final List<QueueGauges> gauges = new CopyOnWriteArrayList<>();
    /** Deliveries just reported dead-lettered, whose settled() report is not to count a retry. */
    private final Set<Delivery> deadLettered = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService refresher;

    private TableQueueMetrics(Builder b) {
        this.registry = b.registry;
        this.statsEvery = b.statsEvery;
    }

    /** Starts the meters of {@code registry}. */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(registry);
    }

    /**
     * Registers the gauges of every queue {@code broker} serves (subscribe first), and reads its queues' rows
     * now and then every {@link Builder#statsEvery}. The broker's listener should be this object, for the
     * counters and timers.
     */
    public synchronized TableQueueMetrics bind(QueueBroker broker) {
        QueueAdmin admin = QueueAdmin.of(broker);
        for (ServedQueue served : broker.queues()) {
            InboxQueue<?> queue = served.queue();
            QueueGauges g = new QueueGauges(admin, served);
            Tags tags = tags(queue.binding().tableName(), queue.name());
            Gauge.builder("tablequeue.deliveries.in.work", broker, b -> b.inWork(queue)).tags(tags)
                    .description("deliveries claimed and not yet settled, on this broker").register(registry);
            Gauge.builder("tablequeue.rows.pending", g, QueueGauges::pending).tags(tags)
                    .description("rows a claim would take now").register(registry);
            Gauge.builder("tablequeue.rows.scheduled", g, QueueGauges::scheduled).tags(tags)
                    .description("unfinished rows due later").register(registry);
            TimeGauge.builder("tablequeue.rows.pending.age", g, TimeUnit.MILLISECONDS, QueueGauges::oldestMillis)
                    .tags(tags).description("how long the oldest pending row has been due").register(registry);
            if (served.deadLetter().isPresent()) {
                Gauge.builder("tablequeue.rows.dead", g, QueueGauges::dead).tags(tags)
                        .description("unfinished rows in the queue's dead letter").register(registry);
            }
            gauges.add(g);
        }
        for (ScheduleState schedule : broker.schedules()) {
            String name = schedule.name();
            Tags tags = Tags.of("schedule", name, "table", schedule.table(), "queue", schedule.queue());
            Gauge.builder("tablequeue.schedule.last", broker, b -> epochSeconds(b, name, ScheduleState::last))
                    .tags(tags).baseUnit("seconds")
                    .description("the newest instant of the schedule known in its table, since the epoch")
                    .register(registry);
            Gauge.builder("tablequeue.schedule.next", broker, b -> epochSeconds(b, name, ScheduleState::next))
                    .tags(tags).baseUnit("seconds")
                    .description("the next instant the schedule publishes, since the epoch").register(registry);
        }
        refresh();
        if (refresher == null) {
            refresher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tablequeue-metrics");
                t.setDaemon(true);
                return t;
            });
            long every = statsEvery.toMillis();
            refresher.scheduleWithFixedDelay(this::refresh, every, every, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /** {@code which} instant of the schedule {@code name} of {@code broker}, in seconds since the epoch; NaN: none. */
    private static double epochSeconds(QueueBroker broker, String name,
            java.util.function.Function<ScheduleState, java.time.Instant> which) {
        return broker.schedules().stream().filter(s -> s.name().equals(name)).findFirst().map(which)
                .map(i -> (double) i.getEpochSecond()).orElse(Double.NaN);
    }

    /** Reads every bound queue's rows now (the periodic query does this on its own). */
    public void refresh() {
        for (QueueGauges g : gauges) {
            try {
                g.refresh();
            } catch (RuntimeException e) {
                // the gauges keep their last reading; the next period tries again
                LOG.warn("the stats of {} were not read: {}", g.served.queue(), e.toString());
            }
        }
    }

    /** Stops the periodic query. Meters stay in the registry. Idempotent. */
    @Override
    public synchronized void close() {
        if (refresher != null) {
            refresher.shutdownNow();
            refresher = null;
        }
    }

    // ------------------------------------------------------------------ listener

    @Override
    public void claimed(InboxQueue<?> queue, int rows, Duration took) {
        QueueMeters m = meters(queue.binding().tableName(), queue.name());
        m.claims.record(took);
        if (rows > 0) {
            m.claimed.increment(rows);
        }
    }

    @Override
    public void handled(Delivery delivery, Outcome outcome, Duration took) {
        meters(delivery).handler.record(took);
    }

    @Override
    public void deadLettered(Delivery delivery, String destination) {
        deadLettered.add(delivery);
        meters(delivery).deadLettered.increment();
    }

    @Override
    public void settled(Delivery delivery, Outcome outcome) {
        QueueMeters m = meters(delivery);
        switch (outcome) {
            case Outcome.Ack a -> m.acknowledged.increment();
            case Outcome.Drop d -> m.dropped.increment();
            case Outcome.Retry r -> retried(m, delivery);
            case Outcome.RetryAfter r -> retried(m, delivery);
            case Outcome.DeadLetter x -> {
                // counted as dead-lettered when it was reported; without a dead letter declared it was dropped
                if (!deadLettered.remove(delivery)) {
                    m.dropped.increment();
                }
            }
        }
    }

    /** A retry written as a retry, not as the dead letter reported just before it. */
    private void retried(QueueMeters m, Delivery delivery) {
        if (!deadLettered.remove(delivery)) {
            m.retried.increment();
        }
    }

    @Override
    public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
        meters(delivery).settlementFailures.increment();
    }

    @Override
    public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
        meters(delivery).settlementsUnknown.increment();
    }

    @Override
    public void decodeFailed(Delivery delivery, Throwable failure) {
        meters(delivery).decodeFailures.increment();
    }

    @Override
    public void leaseLost(Delivery delivery) {
        meters(delivery).leasesLost.increment();
    }

    // ------------------------------------------------------------------ meters

    private QueueMeters meters(Delivery delivery) {
        return meters(delivery.table(), delivery.queue());
    }

    private QueueMeters meters(String table, String queue) {
        return meters.computeIfAbsent(table + "\u0000" + queue, k -> new QueueMeters(registry, tags(table, queue)));
    }

    private static Tags tags(String table, String queue) {
        return Tags.of("table", table, "queue", queue);
    }

    /** The counters and timers of one queue. */
    private static final class QueueMeters {
        final Counter claimed;
        final Counter acknowledged;
        final Counter retried;
        final Counter dropped;
        final Counter deadLettered;
        final Counter settlementFailures;
        final Counter settlementsUnknown;
        final Counter decodeFailures;
        final Counter leasesLost;
        final Timer handler;
        final Timer claims;

        QueueMeters(MeterRegistry registry, Tags tags) {
            claimed = Counter.builder("tablequeue.deliveries.claimed").tags(tags)
                    .description("rows taken into work").register(registry);
            acknowledged = settled(registry, tags, "acknowledged");
            retried = settled(registry, tags, "retried");
            dropped = settled(registry, tags, "dropped");
            deadLettered = settled(registry, tags, "dead_lettered");
            settlementFailures = Counter.builder("tablequeue.deliveries.settlement.failures").tags(tags)
                    .description("outcomes that could not be written").register(registry);
            settlementsUnknown = Counter.builder("tablequeue.deliveries.settlement.unknown").tags(tags)
                    .description("outcomes whose commit was cut off with its connection: written or not, unknown")
                    .register(registry);
            decodeFailures = Counter.builder("tablequeue.deliveries.decode.failures").tags(tags)
                    .description("rows that did not decode").register(registry);
            leasesLost = Counter.builder("tablequeue.leases.lost").tags(tags)
                    .description("deliveries whose lease was lost").register(registry);
            handler = Timer.builder("tablequeue.handler").tags(tags)
                    .description("decoding and handling one delivery").register(registry);
            claims = Timer.builder("tablequeue.claims").tags(tags)
                    .description("claim round trips, empty claims included").register(registry);
        }

        private static Counter settled(MeterRegistry registry, Tags tags, String outcome) {
            return Counter.builder("tablequeue.deliveries.settled").tags(tags).tag("outcome", outcome)
                    .description("outcomes written").register(registry);
        }
    }

    /** The periodic stats of one queue, which its gauges read. */
    private static final class QueueGauges {
        final QueueAdmin admin;
        final ServedQueue served;
        private volatile double pending = Double.NaN;
        private volatile double scheduled = Double.NaN;
        private volatile double dead = Double.NaN;
        private volatile double oldestMillis = Double.NaN;

        QueueGauges(QueueAdmin admin, ServedQueue served) {
            this.admin = admin;
            this.served = served;
        }

        void refresh() {
            var stats = admin.stats(served.queue(), served.deadLetter().orElse(null));
            pending = stats.pending();
            scheduled = stats.scheduled();
            dead = stats.dead().isPresent() ? stats.dead().getAsLong() : Double.NaN;
            oldestMillis = stats.oldestPendingAge().map(Duration::toMillis).orElse(0L);
        }

        double pending() {
            return pending;
        }

        double scheduled() {
            return scheduled;
        }

        double dead() {
            return dead;
        }

        double oldestMillis() {
            return oldestMillis;
        }
    }

    /** Configures a {@link TableQueueMetrics}. */
    public static final class Builder {
        private final MeterRegistry registry;
        private Duration statsEvery = Duration.ofSeconds(30);

        private Builder(MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /** How often the gauges of pending rows are read from the tables (default 30 s). */
        public Builder statsEvery(Duration every) {
            if (every.isNegative() || every.isZero()) {
                throw new IllegalArgumentException("statsEvery must be positive, was " + every);
            }
            this.statsEvery = every;
            return this;
        }

        public TableQueueMetrics build() {
            return new TableQueueMetrics(this);
        }
    }
}
