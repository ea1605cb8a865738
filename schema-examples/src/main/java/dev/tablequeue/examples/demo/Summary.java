package dev.tablequeue.examples.demo;

import dev.tablequeue.broker.ShutdownReport;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a demo run ended: what the broker reported, what the plan called for, and every way the two (or the
 * table) disagree. The run went as planned when {@link #problems()} is empty.
 *
 * @param plan what the run should end with
 * @param counts what the listener counted
 * @param elapsed from the broker's start to the last job's end (or to giving up)
 * @param shutdown what closing the broker reported
 * @param meters the queue's Micrometer meters at the end
 * @param results what {@code demo_results} held at the end of a transactional run; empty for another run
 * @param problems each way the run fell short of the plan, in words; empty when it did not
 */
record Summary(Plan plan, Tally.Counts counts, Duration elapsed, ShutdownReport shutdown, DemoMeters.Figures meters,
        Optional<DemoResults.Counts> results, List<String> problems) {

    long processed() {
        return counts.processed();
    }

    long retried() {
        return counts.retried();
    }

    long dead() {
        return counts.dead();
    }

    /** Jobs that reached their end per second of processing. */
    long jobsPerSecond() {
        return Progress.perSecond(counts.done(), elapsed);
    }

    /** This summary with one more problem. */
    Summary with(String problem) {
        List<String> more = new java.util.ArrayList<>(problems);
        more.add(problem);
        return new Summary(plan, counts, elapsed, shutdown, meters, results, List.copyOf(more));
    }

    /** Whether every job was processed or dead-lettered as planned. */
    boolean ok() {
        return problems.isEmpty();
    }

    void print(PrintStream out) {
        out.printf(Locale.ROOT, "processed      %,8d   (planned %,d)%n", processed(), plan.processed());
        out.printf(Locale.ROOT, "retried        %,8d   (planned %,d)%n", retried(), plan.retries());
        out.printf(Locale.ROOT, "dead-lettered  %,8d   (planned %,d, into group \"%s\")%n", dead(), plan.dead(),
                Demo.DEAD_LETTER);
        results.ifPresent(r -> out.printf(Locale.ROOT,
                "results        %,8d   (acknowledged %,d; rows in demo_results, %,d from a second attempt)%n",
                r.rows(), processed(), r.laterAttempts()));
        out.printf(Locale.ROOT, "elapsed        %8.2f s%n", elapsed.toNanos() / 1e9);
        out.printf(Locale.ROOT, "throughput     %,8d   jobs/s%n", jobsPerSecond());
        if (counts.failures() > 0) {
            out.printf(Locale.ROOT, "failures       %,8d   (the first: %s)%n", counts.failures(),
                    counts.firstFailure());
        }
        out.println("broker closed: " + shutdown);
        meters.print(out);
        if (ok()) {
            out.println("OK: every job was processed or dead-lettered as planned");
        } else {
            out.println("FAILED: the run did not go as planned:");
            problems.forEach(p -> out.println("  - " + p));
        }
        out.flush();
    }
}
