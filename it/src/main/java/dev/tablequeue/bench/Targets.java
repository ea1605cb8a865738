package dev.tablequeue.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The performance targets of the project (issue 4), checked against a report. */
final class Targets {
    static final double RAW_AT_ONE = 0.95;
    static final double RAW_AT_EIGHT = 0.90;
    static final double DB_SCHEDULER_AT_EIGHT = 1.5;
    static final double NOTIFY_P50_MILLIS = 5.0;
    /** Issue 13: what a tracked publish in the caller's transaction may cost over an untracked one. */
    static final double OUTBOX_PUBLISH_COST = 1.3;
    /** Issue 14: batch(64) against db-scheduler's single deliveries, and against the batched raw loop. */
    static final double BATCH_DB_SCHEDULER = 5.0;
    static final double BATCH_RAW_BATCHED = 0.7;
    /** Issue 14: a claim on a table behind its acknowledged rows, against one on the pending rows alone. */
    static final double GROWN_RATIO = 0.9;

    private Targets() {}

    /**
     * One target: what it asks, what was measured, and whether it was met (empty where it could not be
     * measured in this run).
     */
    record Target(String target, String measured, Optional<Boolean> met) {}

    static List<Target> check(BenchReport report) {
        List<Target> targets = new ArrayList<>();
        for (String form : List.of(Forms.ROW_LOCK, Forms.LEASE, Forms.ADVISORY)) {
            targets.add(ratioToRaw(report, form, 1, RAW_AT_ONE));
            targets.add(ratioToRaw(report, form, 8, RAW_AT_EIGHT));
        }
        for (String form : List.of(Forms.ROW_LOCK, Forms.LEASE, Forms.ADVISORY)) {
            targets.add(againstDbScheduler(report, form));
        }
        for (String form : List.of(Forms.ROW_LOCK, Forms.LEASE)) {
            targets.addAll(batch64(report, form));
        }
        targets.add(grown(report));
        targets.add(notify(report));
        targets.add(outboxPublish(report));
        return targets;
    }

    private static Target ratioToRaw(BenchReport report, String form, int workers, double floor) {
        String what = String.format(Locale.ROOT, "PostgreSQL %s, %d worker(s): tablequeue >= %.2f x raw", form,
                workers, floor);
        return find(report, Scenarios.CONSUME, form, workers)
                .filter(c -> c.ratio(CaseResult.TABLEQUEUE, CaseResult.RAW).isPresent())
                .map(c -> {
                    double ratio = c.ratio(CaseResult.TABLEQUEUE, CaseResult.RAW).getAsDouble();
                    return new Target(what, String.format(Locale.ROOT, "%.2f", ratio), Optional.of(ratio >= floor));
                })
                .orElse(new Target(what, "not measured", Optional.empty()));
    }

    private static Target againstDbScheduler(BenchReport report, String form) {
        String what = String.format(Locale.ROOT, "PostgreSQL %s, 8 workers: tablequeue >= %.1f x db-scheduler",
                form, DB_SCHEDULER_AT_EIGHT);
        Optional<CaseResult> ours = find(report, Scenarios.CONSUME, form, 8).filter(c -> c.has(CaseResult.TABLEQUEUE));
        Optional<CaseResult> peer = find(report, Scenarios.CONSUME, Forms.DB_SCHEDULER, 8)
                .filter(c -> c.has(CaseResult.DB_SCHEDULER));
        if (ours.isEmpty() || peer.isEmpty()) {
            return new Target(what, "not measured", Optional.empty());
        }
        double ratio = ours.get().spread(CaseResult.TABLEQUEUE).median()
                / peer.get().spread(CaseResult.DB_SCHEDULER).median();
        return new Target(what, String.format(Locale.ROOT, "%.2f", ratio),
                Optional.of(ratio >= DB_SCHEDULER_AT_EIGHT));
    }

    /** PostgreSQL batch(64) at 8 workers: against db-scheduler at 8 threads, and against the batched raw loop. */
    private static List<Target> batch64(BenchReport report, String form) {
        String peerWhat = String.format(Locale.ROOT, "PostgreSQL %s batch(64), 8 workers: tablequeue >= %.1f x"
                + " db-scheduler", form, BATCH_DB_SCHEDULER);
        String rawWhat = String.format(Locale.ROOT, "PostgreSQL %s batch(64), 8 workers: tablequeue >= %.2f x raw"
                + " batched", form, BATCH_RAW_BATCHED);
        Optional<CaseResult> ours = find(report, Scenarios.consumeBatch(64), form, 8)
                .filter(c -> c.has(CaseResult.TABLEQUEUE));
        Optional<CaseResult> peer = find(report, Scenarios.CONSUME, Forms.DB_SCHEDULER, 8)
                .filter(c -> c.has(CaseResult.DB_SCHEDULER));
        Target againstPeer = ours.isEmpty() || peer.isEmpty()
                ? new Target(peerWhat, "not measured", Optional.empty())
                : ratio(peerWhat, ours.get().spread(CaseResult.TABLEQUEUE).median()
                        / peer.get().spread(CaseResult.DB_SCHEDULER).median(), BATCH_DB_SCHEDULER);
        Target againstRaw = ours.flatMap(c -> {
            var r = c.ratio(CaseResult.TABLEQUEUE, CaseResult.RAW_BATCHED);
            return r.isPresent() ? Optional.of(ratio(rawWhat, r.getAsDouble(), BATCH_RAW_BATCHED)) : Optional.empty();
        }).orElse(new Target(rawWhat, "not measured", Optional.empty()));
        return List.of(againstPeer, againstRaw);
    }

    private static Target grown(BenchReport report) {
        String what = String.format(Locale.ROOT, "PostgreSQL row lock, 8 workers, behind acknowledged rows:"
                + " >= %.1f x the pending rows alone", GROWN_RATIO);
        return find(report, Scenarios.CONSUME_GROWN, Forms.ROW_LOCK, 8)
                .filter(c -> c.ratio(CaseResult.GROWN, CaseResult.TABLEQUEUE).isPresent())
                .map(c -> ratio(what, c.ratio(CaseResult.GROWN, CaseResult.TABLEQUEUE).getAsDouble(), GROWN_RATIO))
                .orElse(new Target(what, "not measured", Optional.empty()));
    }

    private static Target ratio(String what, double ratio, double floor) {
        return new Target(what, String.format(Locale.ROOT, "%.2f", ratio), Optional.of(ratio >= floor));
    }

    private static Target notify(BenchReport report) {
        String what = String.format(Locale.ROOT, "PostgreSQL LISTEN/NOTIFY publish-to-handler p50 < %.0f ms",
                NOTIFY_P50_MILLIS);
        return report.latencies().stream()
                .filter(l -> l.database().equals(Databases.POSTGRES) && l.wakeup().equals(Wakeups.LISTEN_NOTIFY))
                .findFirst()
                .map(l -> new Target(what, String.format(Locale.ROOT, "%.2f ms", l.p50()),
                        Optional.of(l.p50() < NOTIFY_P50_MILLIS)))
                .orElse(new Target(what, "not measured", Optional.empty()));
    }

    private static Target outboxPublish(BenchReport report) {
        String what = String.format(Locale.ROOT, "PostgreSQL outbox, 1 thread: a tracked publish in the caller's"
                + " transaction costs <= %.1f x an untracked one", OUTBOX_PUBLISH_COST);
        return find(report, Scenarios.OUTBOX_PUBLISH, Forms.NONE, 1)
                .filter(c -> c.ratio(CaseResult.TABLEQUEUE, CaseResult.TRACKED).isPresent())
                .map(c -> {
                    double cost = c.ratio(CaseResult.TABLEQUEUE, CaseResult.TRACKED).getAsDouble();
                    return new Target(what, String.format(Locale.ROOT, "%.2f", cost),
                            Optional.of(cost <= OUTBOX_PUBLISH_COST));
                })
                .orElse(new Target(what, "not measured", Optional.empty()));
    }

    private static Optional<CaseResult> find(BenchReport report, String scenario, String form, int workers) {
        return report.cases().stream()
                .filter(c -> c.database().equals(Databases.POSTGRES) && c.scenario().equals(scenario)
                        && c.form().equals(form) && c.workers() == workers)
                .findFirst();
    }
}
