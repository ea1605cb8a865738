package dev.tablequeue.bench;

import java.util.List;

/**
 * Publish-to-handler latencies of one way of waking a subscription.
 *
 * @param database where it ran
 * @param wakeup how the subscription learnt of the row (LISTEN/NOTIFY, polling, in-process)
 * @param millis each sample: from the publish call to the handler's first line
 */
record LatencyResult(String database, String wakeup, List<Double> millis) {
    LatencyResult {
        millis = List.copyOf(millis);
    }

    double p50() {
        return Stats.percentile(millis, 50);
    }

    double p99() {
        return Stats.percentile(millis, 99);
    }

    double max() {
        return Stats.max(millis);
    }
}
