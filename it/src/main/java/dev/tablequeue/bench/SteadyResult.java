package dev.tablequeue.bench;

import java.time.Duration;
import java.util.List;

/**
 * One steady-state run ({@link SteadyRun}).
 *
 * @param rate the publishers' rate, messages per second
 * @param share that rate's share of the consumption case's rate
 * @param handled the messages handled by the end (60 s at most after the last publish)
 * @param millis publish-to-handler latencies of the messages published in each slice, in order
 * @param deadTuples the table's dead tuples at the end ({@code pg_stat_user_tables.n_dead_tup})
 * @param autovacuums autovacuum runs on the table during the run
 */
record SteadyResult(String database, String form, int workers, double rate, double share, Duration length, Duration slice,
        long published, long handled, List<List<Double>> millis, long deadTuples, long liveTuples, long autovacuums) {
    SteadyResult {
        millis = millis.stream().map(List::copyOf).toList();
    }

    double p50(int slice) {
        return millis.get(slice).isEmpty() ? Double.NaN : Stats.percentile(millis.get(slice), 50);
    }

    double p99(int slice) {
        return millis.get(slice).isEmpty() ? Double.NaN : Stats.percentile(millis.get(slice), 99);
    }
}
