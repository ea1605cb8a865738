package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The performance targets of issues 13, 14, 33, 34 and 36, checked against a report. Every target names its worker count;
 * a run without that count, or without either figure, leaves the target "not measured", never failed.
 */
final class Targets {
    /** Issue 14: single deliveries at 8 workers against db-scheduler at 8 threads, per form. */
    static final double SINGLE_ROW_LOCK = 2.0;
    static final double SINGLE_LEASE = 1.6;
    static final double SINGLE_ADVISORY = 1.0;
    /** Issue 14: every form at 1 worker against db-scheduler at 1 thread. */
    static final double ONE_WORKER_DB_SCHEDULER = 1.0;
    /** Issue 14: single deliveries at 8 workers against the batched raw loop of the same case. */
    static final double SINGLE_RAW_BATCHED = 0.75;
    /** Issue 14: batch(64) against db-scheduler's single deliveries, and against the batched raw loop. */
    static final double BATCH_DB_SCHEDULER = 5.0;
    static final double BATCH_RAW_BATCHED = 0.7;
    /** Issue 14: SQLite at 1 worker against its one-row raw loop. */
    static final double SQLITE_RAW_AT_ONE = 0.8;
    /** Issue 14: tablequeue's heap bytes per message at most this many times the raw loop's. */
    static final double HEAP_TO_RAW = 2.0;
    /** Issue 14: a claim on a table behind its acknowledged rows, against one on the pending rows alone. */
    static final double GROWN_RATIO = 0.9;
    /** Issue 36: claims while retention deletes, against the same table without retention, at 8 workers. */
    static final double RETAINED_RATIO = 0.9;
    static final double NOTIFY_P50_MILLIS = 5.0;
    /** Issue 13: what a tracked publish in the caller's transaction may cost over an untracked one. */
    static final double OUTBOX_PUBLISH_COST = 1.3;
    /** Issue 33, item 6: what a tracked delivery may cost over an untracked one, at 1 and 8 workers. */
    static final double OUTBOX_DELIVERY_COST = 1.3;

    /** Issue 34: a transactional delivery against the raw loop of the same shape, at 1 and 8 workers. */
    static final double TRANSACTIONAL_RAW = 0.8;

    private static final String BATCH_64 = Scenarios.consumeBatch(64);
    private static final List<String> ALL_FORMS = List.of(Forms.ROW_LOCK, Forms.LEASE, Forms.ADVISORY);

    private Targets() {}

    /**
     * One target: what it asks, what was measured, and whether it was met (empty where it could not be
     * measured in this run).
     */
    record Target(String target, String measured, Optional<Boolean> met) {
        static Target notMeasured(String target) {
            return new Target(target, "not measured", Optional.empty());
        }
    }

    /** One figure over another, as the measured column shows it: {@code 9,561 / 6,622 = 1.44}. */
    private record Quotient(double over, double under) {
        double value() {
            return over / under;
        }

        String text() {
            return String.format(Locale.ROOT, "%,.0f / %,.0f = %.2f", over, under, value());
        }
    }

    static List<Target> check(BenchReport report) {
        List<Target> targets = new ArrayList<>();
        targets.add(againstDbScheduler(report, Scenarios.CONSUME, Forms.ROW_LOCK, 8, SINGLE_ROW_LOCK));
        targets.add(againstDbScheduler(report, Scenarios.CONSUME, Forms.LEASE, 8, SINGLE_LEASE));
        targets.add(againstDbScheduler(report, Scenarios.CONSUME, Forms.ADVISORY, 8, SINGLE_ADVISORY));
        for (String form : ALL_FORMS) {
            targets.add(againstDbScheduler(report, Scenarios.CONSUME, form, 1, ONE_WORKER_DB_SCHEDULER));
        }
        for (String form : batchedForms(Databases.POSTGRES)) {
            targets.add(againstRawBatched(report, Databases.POSTGRES, Scenarios.CONSUME, form, SINGLE_RAW_BATCHED));
        }
        for (String form : batchedForms(Databases.POSTGRES)) {
            targets.add(againstDbScheduler(report, BATCH_64, form, 8, BATCH_DB_SCHEDULER));
            targets.add(againstRawBatched(report, Databases.POSTGRES, BATCH_64, form, BATCH_RAW_BATCHED));
        }
        for (String database : List.of(Databases.MARIADB, Databases.SQLITE)) {
            for (String form : batchedForms(database)) {
                targets.add(againstRawBatched(report, database, BATCH_64, form, BATCH_RAW_BATCHED));
            }
        }
        for (String form : forms(Databases.SQLITE)) {
            targets.add(sqliteAgainstRaw(report, form));
        }
        for (String form : ALL_FORMS) {
            targets.add(heap(report, form, 1));
            targets.add(heap(report, form, 8));
        }
        for (String database : List.of(Databases.POSTGRES, Databases.MARIADB, Databases.SQLITE)) {
            for (String form : forms(database)) {
                for (int workers : List.of(1, 8)) {
                    targets.add(transactionalAgainstRaw(report, database, form, workers));
                }
            }
        }
        targets.add(grown(report));
        targets.add(retained(report, Databases.POSTGRES, "PostgreSQL", Forms.ROW_LOCK));
        targets.add(retained(report, Databases.MARIADB, "MariaDB", Forms.ROW_LOCK));
        targets.add(retained(report, Databases.SQLITE, "SQLite", Forms.LEASE));
        targets.add(notify(report));
        targets.add(outboxPublish(report));
        for (String database : List.of(Databases.POSTGRES, Databases.MARIADB, Databases.SQLITE)) {
            for (int workers : List.of(1, 8)) {
                targets.add(outboxDelivery(report, database, workers));
            }
        }
        return targets;
    }

    /** tablequeue in {@code scenario} on PostgreSQL against db-scheduler's single deliveries at as many threads. */
    private static Target againstDbScheduler(BenchReport report, String scenario, String form, int workers,
            double bar) {
        String what = String.format(Locale.ROOT, "PostgreSQL %s%s, %s: tablequeue >= %s x db-scheduler at %s",
                form, suffix(scenario), workers(workers), number(bar), threads(workers));
        Optional<CaseResult> peer = find(report, Databases.POSTGRES, Scenarios.CONSUME, Forms.DB_SCHEDULER, workers);
        return atLeast(what, medians(find(report, Databases.POSTGRES, scenario, form, workers), CaseResult.TABLEQUEUE,
                peer, CaseResult.DB_SCHEDULER), bar);
    }

    /** tablequeue against the batched raw loop of the same case, at 8 workers. */
    private static Target againstRawBatched(BenchReport report, String database, String scenario, String form,
            double bar) {
        String what = String.format(Locale.ROOT, "%s %s%s, 8 workers: tablequeue >= %s x raw batched",
                name(database), form, suffix(scenario), number(bar));
        Optional<CaseResult> c = find(report, database, scenario, form, 8);
        return atLeast(what, medians(c, CaseResult.TABLEQUEUE, c, CaseResult.RAW_BATCHED), bar);
    }

    /** A transactional subscription against the raw loop of the same shape (synchronous_commit off on PostgreSQL). */
    private static Target transactionalAgainstRaw(BenchReport report, String database, String form, int workers) {
        String what = String.format(Locale.ROOT, "%s %s transactional, %s: tablequeue >= %s x the same-shape raw loop",
                name(database), form, workers(workers), number(TRANSACTIONAL_RAW));
        Optional<CaseResult> c = find(report, database, Scenarios.CONSUME_TRANSACTIONAL, form, workers);
        return atLeast(what, medians(c, CaseResult.TABLEQUEUE, c, CaseResult.RAW), TRANSACTIONAL_RAW);
    }

    private static Target sqliteAgainstRaw(BenchReport report, String form) {
        String what = String.format(Locale.ROOT, "SQLite %s, 1 worker: tablequeue >= %s x raw", form,
                number(SQLITE_RAW_AT_ONE));
        Optional<CaseResult> c = find(report, Databases.SQLITE, Scenarios.CONSUME, form, 1);
        return atLeast(what, medians(c, CaseResult.TABLEQUEUE, c, CaseResult.RAW), SQLITE_RAW_AT_ONE);
    }

    /** tablequeue's median heap bytes per message over the raw loop's, in the same PostgreSQL case. */
    private static Target heap(BenchReport report, String form, int workers) {
        String what = String.format(Locale.ROOT, "PostgreSQL %s, %s: tablequeue's heap B/msg <= %s x raw's", form,
                workers(workers), number(HEAP_TO_RAW));
        Optional<Quotient> q = find(report, Databases.POSTGRES, Scenarios.CONSUME, form, workers)
                .map(c -> new Quotient(c.bytesPerMessage(CaseResult.TABLEQUEUE), c.bytesPerMessage(CaseResult.RAW)))
                .filter(x -> Double.isFinite(x.value()));
        return q.map(x -> new Target(what, x.text(), Optional.of(x.value() <= HEAP_TO_RAW)))
                .orElse(Target.notMeasured(what));
    }

    private static Target grown(BenchReport report) {
        String what = String.format(Locale.ROOT, "PostgreSQL row lock, 8 workers, behind acknowledged rows:"
                + " >= %s x the pending rows alone", number(GROWN_RATIO));
        Optional<CaseResult> c = find(report, Databases.POSTGRES, Scenarios.CONSUME_GROWN, Forms.ROW_LOCK, 8);
        return atLeast(what, medians(c, CaseResult.GROWN, c, CaseResult.TABLEQUEUE), GROWN_RATIO);
    }

    private static Target retained(BenchReport report, String database, String title, String form) {
        String what = String.format(Locale.ROOT, "%s %s, 8 workers, while retention deletes acknowledged rows:"
                + " >= %s x without retention", title, form, number(RETAINED_RATIO));
        Optional<CaseResult> c = find(report, database, Scenarios.CONSUME_RETAINED, form, 8);
        return atLeast(what, medians(c, CaseResult.RETAINED, c, CaseResult.GROWN), RETAINED_RATIO);
    }

    private static Target notify(BenchReport report) {
        String what = String.format(Locale.ROOT, "PostgreSQL LISTEN/NOTIFY publish-to-handler p50 < %s ms",
                number(NOTIFY_P50_MILLIS));
        return report.latencies().stream()
                .filter(l -> l.database().equals(Databases.POSTGRES) && l.wakeup().equals(Wakeups.LISTEN_NOTIFY))
                .findFirst()
                .map(l -> new Target(what, String.format(Locale.ROOT, "%.2f ms", l.p50()),
                        Optional.of(l.p50() < NOTIFY_P50_MILLIS)))
                .orElse(Target.notMeasured(what));
    }

    /** The untracked publish rate over the tracked one: what tracking costs a publish. */
    private static Target outboxPublish(BenchReport report) {
        String what = String.format(Locale.ROOT, "PostgreSQL outbox, 1 thread: a tracked publish in the caller's"
                + " transaction costs <= %s x an untracked one", number(OUTBOX_PUBLISH_COST));
        Optional<CaseResult> c = find(report, Databases.POSTGRES, Scenarios.OUTBOX_PUBLISH, Forms.NONE, 1);
        return medians(c, CaseResult.TABLEQUEUE, c, CaseResult.TRACKED)
                .map(q -> new Target(what, q.text(), Optional.of(q.value() <= OUTBOX_PUBLISH_COST)))
                .orElse(Target.notMeasured(what));
    }

    /** The untracked delivery rate over the tracked one: what tracking costs a delivery (row lock; SQLite: lease). */
    private static Target outboxDelivery(BenchReport report, String database, int workers) {
        String form = database.equals(Databases.SQLITE) ? Forms.LEASE : Forms.ROW_LOCK;
        String what = String.format(Locale.ROOT, "%s outbox %s, %s: a tracked delivery costs <= %s x an untracked"
                + " one", name(database), form, workers(workers), number(OUTBOX_DELIVERY_COST));
        Optional<CaseResult> c = find(report, database, Scenarios.OUTBOX_DELIVERY, form, workers);
        return medians(c, CaseResult.TABLEQUEUE, c, CaseResult.TRACKED)
                .map(q -> new Target(what, q.text(), Optional.of(q.value() <= OUTBOX_DELIVERY_COST)))
                .orElse(Target.notMeasured(what));
    }

    private static Target atLeast(String what, Optional<Quotient> quotient, double bar) {
        return quotient.map(q -> new Target(what, q.text(), Optional.of(q.value() >= bar)))
                .orElse(Target.notMeasured(what));
    }

    /** The median rate of {@code over} in one case over that of {@code under} in another, where both ran. */
    private static Optional<Quotient> medians(Optional<CaseResult> overCase, String over,
            Optional<CaseResult> underCase, String under) {
        if (overCase.isEmpty() || underCase.isEmpty() || !overCase.get().has(over) || !underCase.get().has(under)) {
            return Optional.empty();
        }
        return Optional.of(new Quotient(overCase.get().spread(over).median(), underCase.get().spread(under).median()));
    }

    private static Optional<CaseResult> find(BenchReport report, String database, String scenario, String form,
            int workers) {
        return report.cases().stream()
                .filter(c -> c.database().equals(database) && c.scenario().equals(scenario)
                        && c.form().equals(form) && c.workers() == workers)
                .findFirst();
    }

    /** The forms tablequeue serves on {@code database}. */
    private static List<String> forms(String database) {
        return Engine.of(database).forms().stream().map(Forms::of).toList();
    }

    /**
     * The forms whose targets compare with the batched raw loop (issue 14 names the row lock and lease forms),
     * of those {@code database} serves.
     */
    private static List<String> batchedForms(String database) {
        return Engine.of(database).forms().stream().filter(f -> f != Form.ADVISORY).map(Forms::of).toList();
    }

    private static String name(String database) {
        return switch (database) {
            case Databases.POSTGRES -> "PostgreSQL";
            case Databases.MARIADB -> "MariaDB";
            case Databases.SQLITE -> "SQLite";
            default -> database;
        };
    }

    private static String suffix(String scenario) {
        return scenario.equals(Scenarios.CONSUME) ? "" : " " + scenario.substring("consume, ".length());
    }

    private static String workers(int n) {
        return n == 1 ? "1 worker" : n + " workers";
    }

    private static String threads(int n) {
        return n == 1 ? "1 thread" : n + " threads";
    }

    /** A bar as the issue writes it: 2.0, 0.75, 0.7. */
    private static String number(double bar) {
        return new DecimalFormat("0.0#", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(bar);
    }
}
