package dev.tablequeue.broker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How many rows a queue acknowledged per period: by their processed_at ({@link QueueAdmin#throughput}), or as
 * the service's broker counted them ({@link QueueAdmin#acknowledgedByBroker}).
 *
 * @param from the start of the first period
 * @param period each period's length
 * @param counts the rows acknowledged in each period, oldest first; the last period ends at the time read
 */
public record Throughput(Instant from, Duration period, List<Long> counts) {
    public Throughput {
        counts = List.copyOf(counts);
    }

    /** The start of the {@code i}-th period. */
    public Instant start(int i) {
        return from.plus(period.multipliedBy(i));
    }

    /** The average rate of the {@code i}-th period, in rows per second. */
    public double perSecond(int i) {
        return counts.get(i) * 1e9 / period.toNanos();
    }
}
