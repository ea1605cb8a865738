package dev.tablequeue.examples.demo;

import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.micrometer.TableQueueMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The demo's Micrometer meters, as a service would have them: {@link TableQueueMetrics} on a registry (here an
 * in-memory {@link SimpleMeterRegistry}), whose figures the demo prints at the end of a run.
 */
final class DemoMeters implements AutoCloseable {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TableQueueMetrics metrics = TableQueueMetrics.builder(registry).build();

    /** The listener the broker reports to, for the counters and timers. */
    BrokerListener listener() {
        return metrics;
    }

    /** Registers the gauges of the queues {@code broker} serves (call after subscribing). */
    void bind(QueueBroker broker) {
        metrics.bind(broker);
    }

    /** Reads the meters of one queue now, its gauges read afresh from the table. */
    Figures read(String table, String queue) {
        metrics.refresh();
        Tags tags = Tags.of("table", table, "queue", queue);
        Timer handler = registry.find("tablequeue.handler").tags(tags).timer();
        Timer claims = registry.find("tablequeue.claims").tags(tags).timer();
        return new Figures(count("tablequeue.deliveries.claimed", tags), settled(tags, "acknowledged"),
                settled(tags, "retried"), settled(tags, "dead_lettered"), settled(tags, "dropped"),
                count("tablequeue.deliveries.decode.failures", tags),
                count("tablequeue.deliveries.settlement.failures", tags), count("tablequeue.leases.lost", tags),
                Timing.of(handler), Timing.of(claims), gauge("tablequeue.rows.pending", tags),
                gauge("tablequeue.rows.dead", tags), ageMillis(tags));
    }

    private long settled(Tags tags, String outcome) {
        return count("tablequeue.deliveries.settled", tags.and("outcome", outcome));
    }

    private long count(String name, Tags tags) {
        Counter c = registry.find(name).tags(tags).counter();
        return c == null ? 0 : (long) c.count();
    }

    private double gauge(String name, Tags tags) {
        Gauge g = registry.find(name).tags(tags).gauge();
        return g == null ? Double.NaN : g.value();
    }

    private double ageMillis(Tags tags) {
        TimeGauge g = registry.find("tablequeue.rows.pending.age").tags(tags).timeGauge();
        return g == null ? Double.NaN : g.value(TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        metrics.close();
        registry.close();
    }

    /** How many times a timer ran, and its mean and longest run in milliseconds. */
    record Timing(long count, double meanMillis, double maxMillis) {
        static Timing of(Timer t) {
            return t == null ? new Timing(0, 0, 0)
                    : new Timing(t.count(), t.mean(TimeUnit.MILLISECONDS), t.max(TimeUnit.MILLISECONDS));
        }
    }

    /** One queue's meters at the end of a run. */
    record Figures(long claimed, long acknowledged, long retried, long deadLettered, long dropped,
            long decodeFailures, long settlementFailures, long leasesLost, Timing handler, Timing claims,
            double pendingRows, double deadRows, double oldestPendingMillis) {

        void print(PrintStream out) {
            out.println("micrometer meters (tag queue=\"" + Demo.QUEUE + "\"):");
            out.printf(Locale.ROOT, "  tablequeue.deliveries.claimed                        %,10d%n", claimed);
            out.printf(Locale.ROOT, "  tablequeue.deliveries.settled{outcome=acknowledged}  %,10d%n", acknowledged);
            out.printf(Locale.ROOT, "  tablequeue.deliveries.settled{outcome=retried}       %,10d%n", retried);
            out.printf(Locale.ROOT, "  tablequeue.deliveries.settled{outcome=dead_lettered} %,10d%n", deadLettered);
            out.printf(Locale.ROOT, "  tablequeue.deliveries.settled{outcome=dropped}       %,10d%n", dropped);
            out.printf(Locale.ROOT, "  tablequeue.deliveries.decode.failures                %,10d%n", decodeFailures);
            out.printf(Locale.ROOT, "  tablequeue.deliveries.settlement.failures            %,10d%n",
                    settlementFailures);
            out.printf(Locale.ROOT, "  tablequeue.leases.lost                               %,10d%n", leasesLost);
            out.printf(Locale.ROOT, "  tablequeue.handler   %,10d runs, mean %.3f ms, max %.3f ms%n", handler.count(),
                    handler.meanMillis(), handler.maxMillis());
            out.printf(Locale.ROOT, "  tablequeue.claims    %,10d runs, mean %.3f ms, max %.3f ms%n", claims.count(),
                    claims.meanMillis(), claims.maxMillis());
            out.printf(Locale.ROOT, "  tablequeue.rows.pending %.0f, tablequeue.rows.dead %.0f,"
                    + " tablequeue.rows.pending.age %.0f ms%n", pendingRows, deadRows, oldestPendingMillis);
        }
    }
}
