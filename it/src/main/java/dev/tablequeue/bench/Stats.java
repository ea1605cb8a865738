package dev.tablequeue.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Order statistics of a handful of rounds, and percentiles of latency samples. */
final class Stats {
    private Stats() {}

    /** Best, median and worst of one contender's rounds, where more is better (messages per second). */
    record Spread(double best, double median, double worst) {
        static Spread of(List<Double> values) {
            return new Spread(Stats.max(values), Stats.median(values), Stats.min(values));
        }
    }

    /** The median: the middle value, or the mean of the two middle values of an even count. */
    static double median(List<Double> values) {
        List<Double> sorted = sorted(values);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * The {@code p}-th percentile by nearest rank: the smallest sample with at least {@code p} percent of
     * the samples at or below it.
     */
    static double percentile(List<Double> values, double p) {
        if (p <= 0 || p > 100) {
            throw new IllegalArgumentException("a percentile is in (0, 100], was " + p);
        }
        List<Double> sorted = sorted(values);
        int rank = (int) Math.ceil(p / 100 * sorted.size());
        return sorted.get(Math.max(rank, 1) - 1);
    }

    static double max(List<Double> values) {
        return sorted(values).getLast();
    }

    static double min(List<Double> values) {
        return sorted(values).getFirst();
    }

    private static List<Double> sorted(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted;
    }
}
