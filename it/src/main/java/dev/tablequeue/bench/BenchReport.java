package dev.tablequeue.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one run of the harness measured, and under what: the writers render it.
 *
 * @param mode "quick" or "full"
 * @param rounds timed rounds per case
 * @param targetSeconds the least duration a timed run is sized for (0 in quick mode: fixed counts)
 * @param started when the run started
 * @param took how long it took
 * @param machine facts about the machine and the JVM, by name
 * @param settings the settings each server ran under, by database, then by setting
 * @param cases the throughput cases
 * @param latencies the latency measurements
 * @param steady the steady-state runs
 * @param notes what the reader needs to know: method, what was left out, failures
 */
record BenchReport(
        String mode,
        int rounds,
        double targetSeconds,
        Instant started,
        Duration took,
        Map<String, String> machine,
        Map<String, Map<String, String>> settings,
        List<CaseResult> cases,
        List<LatencyResult> latencies,
        List<SteadyResult> steady,
        List<String> notes) {

    /** The acknowledged rows the growth case put before its pending ones. */
    long grownRows() {
        return mode.equals("quick") ? BenchOptions.GROWN_ROWS_QUICK : BenchOptions.GROWN_ROWS;
    }

    /** Every failure of every case, each naming its case. */
    List<String> failures() {
        return cases.stream().flatMap(c -> c.failures().stream().map(f -> c + ": " + f)).toList();
    }
}
