package dev.tablequeue.bench;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Renders a {@link BenchReport} as Markdown: settings, throughput side by side, db-scheduler, latency, targets. */
final class MarkdownReport {
    private MarkdownReport() {}

    static String render(BenchReport report) {
        StringBuilder md = new StringBuilder();
        md.append("# tablequeue benchmark\n\n");
        md.append(String.format(Locale.ROOT, "Mode: **%s**, %d round(s)%s; started %s, took %d min %d s.%n%n",
                report.mode(), report.rounds(),
                report.targetSeconds() > 0
                        ? String.format(Locale.ROOT, ", every timed run sized to last at least %.1f s",
                                report.targetSeconds())
                        : "",
                report.started().truncatedTo(ChronoUnit.SECONDS), report.took().toMinutes(),
                report.took().toSecondsPart()));
        md.append("The harness does not control what else runs on the machine (builds and tests of others may"
                + " share its cores); the load average at start and end says how busy it was.\n\n");
        machine(md, report.machine());
        settings(md, report.settings());
        throughput(md, report);
        dbScheduler(md, report);
        batches(md, report);
        growth(md, report);
        retention(md, report);
        outbox(md, report);
        others(md, report);
        latency(md, report.latencies());
        steady(md, report.steady());
        targets(md, Targets.check(report));
        md.append("## Method\n\n");
        for (String note : report.notes()) {
            md.append("- ").append(note).append('\n');
        }
        List<String> failures = report.failures();
        if (!failures.isEmpty()) {
            md.append("\n## Failures\n\n");
            for (String f : failures) {
                md.append("- ").append(cell(f)).append('\n');
            }
        }
        return md.toString();
    }

    private static void machine(StringBuilder md, Map<String, String> machine) {
        md.append("## Machine\n\n| fact | value |\n|---|---|\n");
        machine.forEach((k, v) -> md.append("| ").append(cell(k)).append(" | ").append(cell(v)).append(" |\n"));
        md.append('\n');
    }

    private static void settings(StringBuilder md, Map<String, Map<String, String>> settings) {
        md.append("## Server settings\n\n| database | setting | value |\n|---|---|---|\n");
        settings.forEach((db, values) -> values.forEach((k, v) ->
                md.append("| ").append(cell(db)).append(" | ").append(cell(k)).append(" | ").append(cell(v))
                        .append(" |\n")));
        md.append('\n');
    }

    private static void throughput(StringBuilder md, BenchReport report) {
        md.append("## Throughput\n\nMessages per second: median of the rounds, (best - worst) beside it. The ratio is"
                + " tablequeue's median over raw JDBC's, from the same rounds.\n\n");
        md.append("| database | scenario | form | workers | tablequeue | raw JDBC | tablequeue / raw"
                + " | heap B/msg tablequeue | heap B/msg raw | messages per run | shortest run (s) |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CaseResult c : report.cases()) {
            if (!c.contenders().contains(CaseResult.RAW)) {
                continue;
            }
            md.append("| ").append(c.database()).append(" | ").append(c.scenario()).append(" | ").append(c.form())
                    .append(" | ").append(c.workers())
                    .append(" | ").append(spread(c, CaseResult.TABLEQUEUE))
                    .append(" | ").append(spread(c, CaseResult.RAW))
                    .append(" | ").append(c.ratio(CaseResult.TABLEQUEUE, CaseResult.RAW).stream()
                            .mapToObj(r -> String.format(Locale.ROOT, "%.2f", r)).findFirst().orElse("-"))
                    .append(" | ").append(bytes(c, CaseResult.TABLEQUEUE))
                    .append(" | ").append(bytes(c, CaseResult.RAW))
                    .append(" | ").append(String.format(Locale.ROOT, "%,d", c.messages()))
                    .append(" | ").append(shortest(c))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static void dbScheduler(StringBuilder md, BenchReport report) {
        List<CaseResult> peer = report.cases().stream()
                .filter(c -> c.has(CaseResult.DB_SCHEDULER)).toList();
        if (peer.isEmpty()) {
            return;
        }
        md.append("## tablequeue against db-scheduler (PostgreSQL, same database, pool and thread count)\n\n");
        md.append("| workers | db-scheduler | heap B/msg | tablequeue row lock | x | tablequeue lease | x"
                + " | tablequeue advisory | x |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CaseResult p : peer) {
            double theirs = p.spread(CaseResult.DB_SCHEDULER).median();
            md.append("| ").append(p.workers()).append(" | ").append(spread(p, CaseResult.DB_SCHEDULER))
                    .append(" | ").append(bytes(p, CaseResult.DB_SCHEDULER));
            for (String form : List.of(Forms.ROW_LOCK, Forms.LEASE, Forms.ADVISORY)) {
                Optional<CaseResult> ours = report.cases().stream()
                        .filter(c -> c.database().equals(p.database()) && c.scenario().equals(Scenarios.CONSUME)
                                && c.form().equals(form) && c.workers() == p.workers()
                                && c.has(CaseResult.TABLEQUEUE))
                        .findFirst();
                md.append(" | ").append(ours.map(c -> rate(c.spread(CaseResult.TABLEQUEUE).median())).orElse("-"))
                        .append(" | ").append(ours.map(c -> String.format(Locale.ROOT, "%.2f",
                                c.spread(CaseResult.TABLEQUEUE).median() / theirs)).orElse("-"));
            }
            md.append(" |\n");
        }
        md.append('\n');
    }

    /**
     * The {@code batch(n)} cases: tablequeue beside the batched raw loop claiming n rows at a time, and beside
     * db-scheduler's single deliveries at the same thread count where the run has them.
     */
    private static void batches(StringBuilder md, BenchReport report) {
        List<CaseResult> cases = report.cases().stream().filter(c -> Scenarios.isBatch(c.scenario())).toList();
        if (cases.isEmpty()) {
            return;
        }
        md.append("## Batches\n\nMessages per second, median of the rounds (best - worst). The batched raw loop claims"
                + " n rows in one statement and acknowledges them in one statement, one commit; db-scheduler runs"
                + " single tasks at the same thread count (PostgreSQL).\n\n| database | scenario | form | workers"
                + " | tablequeue | raw JDBC, batched | tablequeue / raw batched | tablequeue / db-scheduler"
                + " | heap B/msg tablequeue | heap B/msg raw batched |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CaseResult c : cases) {
            Optional<CaseResult> peer = report.cases().stream()
                    .filter(p -> p.database().equals(c.database()) && p.workers() == c.workers()
                            && p.has(CaseResult.DB_SCHEDULER))
                    .findFirst();
            String againstPeer = peer.filter(p -> c.has(CaseResult.TABLEQUEUE))
                    .map(p -> String.format(Locale.ROOT, "%.2f", c.spread(CaseResult.TABLEQUEUE).median()
                            / p.spread(CaseResult.DB_SCHEDULER).median()))
                    .orElse("-");
            md.append("| ").append(c.database()).append(" | ").append(c.scenario()).append(" | ").append(c.form())
                    .append(" | ").append(c.workers())
                    .append(" | ").append(spread(c, CaseResult.TABLEQUEUE))
                    .append(" | ").append(spread(c, CaseResult.RAW_BATCHED))
                    .append(" | ").append(c.ratio(CaseResult.TABLEQUEUE, CaseResult.RAW_BATCHED).stream()
                            .mapToObj(r -> String.format(Locale.ROOT, "%.2f", r)).findFirst().orElse("-"))
                    .append(" | ").append(againstPeer)
                    .append(" | ").append(bytes(c, CaseResult.TABLEQUEUE))
                    .append(" | ").append(bytes(c, CaseResult.RAW_BATCHED))
                    .append(" |\n");
        }
        md.append('\n');
    }

    /** The growth case: the same consumption on a table of pending rows alone and behind acknowledged ones. */
    private static void growth(StringBuilder md, BenchReport report) {
        List<CaseResult> cases = report.cases().stream()
                .filter(c -> c.scenario().equals(Scenarios.CONSUME_GROWN)).toList();
        if (cases.isEmpty()) {
            return;
        }
        md.append("## Tables that keep their acknowledged rows\n\nMessages per second, median of the rounds (best -"
                + " worst), of the same subscription on a table of pending rows alone and on one whose acknowledged"
                + " rows (processed_at set, ").append(String.format(Locale.ROOT, "%,d", report.grownRows()))
                .append(" of them) come before the pending ones; the ratio is the second over the first.\n\n"
                        + "| database | form | workers | pending rows alone | beside acknowledged rows | ratio |\n"
                        + "|---|---|---:|---:|---:|---:|\n");
        for (CaseResult c : cases) {
            md.append("| ").append(c.database()).append(" | ").append(c.form()).append(" | ").append(c.workers())
                    .append(" | ").append(spread(c, CaseResult.TABLEQUEUE))
                    .append(" | ").append(spread(c, CaseResult.GROWN))
                    .append(" | ").append(c.ratio(CaseResult.GROWN, CaseResult.TABLEQUEUE).stream()
                            .mapToObj(r -> String.format(Locale.ROOT, "%.2f", r)).findFirst().orElse("-"))
                    .append(" |\n");
        }
        md.append('\n');
    }

    /** The retention case: consumption beside old acknowledged rows, without and with retention deleting them. */
    private static void retention(StringBuilder md, BenchReport report) {
        List<CaseResult> cases = report.cases().stream()
                .filter(c -> c.scenario().equals(Scenarios.CONSUME_RETAINED)).toList();
        if (cases.isEmpty()) {
            return;
        }
        md.append("## Claims while retention deletes\n\nMessages per second, median of the rounds (best - worst), of"
                + " the same subscription on a table whose old acknowledged rows come before its pending ones, without"
                + " retention and with the broker's retention deleting those rows in batches meanwhile; the ratio is"
                + " the second over the first.\n\n"
                + "| database | form | workers | without retention | with retention | ratio |\n"
                + "|---|---|---:|---:|---:|---:|\n");
        for (CaseResult c : cases) {
            md.append("| ").append(c.database()).append(" | ").append(c.form()).append(" | ").append(c.workers())
                    .append(" | ").append(spread(c, CaseResult.GROWN))
                    .append(" | ").append(spread(c, CaseResult.RETAINED))
                    .append(" | ").append(c.ratio(CaseResult.RETAINED, CaseResult.GROWN).stream()
                            .mapToObj(r -> String.format(Locale.ROOT, "%.2f", r)).findFirst().orElse("-"))
                    .append(" |\n");
        }
        md.append('\n');
    }

    /** The outbox's cases: tracked beside untracked, and what tracking costs (untracked rate over tracked). */
    private static void outbox(StringBuilder md, BenchReport report) {
        List<CaseResult> cases = report.cases().stream().filter(c -> c.contenders().contains(CaseResult.TRACKED))
                .toList();
        if (cases.isEmpty()) {
            return;
        }
        md.append("## The outbox's cost\n\nMessages per second, median of the rounds (best - worst); the cost is"
                + " the untracked median over the tracked one (1.00: free).\n\n| database | scenario | threads or"
                + " workers | untracked | tracked | cost | heap B/msg untracked | heap B/msg tracked |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (CaseResult c : cases) {
            md.append("| ").append(c.database()).append(" | ").append(cell(c.scenario())).append(" | ")
                    .append(c.workers()).append(" | ").append(spread(c, CaseResult.TABLEQUEUE)).append(" | ")
                    .append(spread(c, CaseResult.TRACKED)).append(" | ")
                    .append(c.ratio(CaseResult.TABLEQUEUE, CaseResult.TRACKED).stream()
                            .mapToObj(r -> String.format(Locale.ROOT, "%.2f", r)).findFirst().orElse("-"))
                    .append(" | ").append(bytes(c, CaseResult.TABLEQUEUE)).append(" | ")
                    .append(bytes(c, CaseResult.TRACKED)).append(" |\n");
        }
        md.append('\n');
    }

    /** Contenders beyond tablequeue, raw JDBC and db-scheduler: diagnostics such as the raw loop on virtual threads. */
    private static void others(StringBuilder md, BenchReport report) {
        List<String> known = List.of(CaseResult.TABLEQUEUE, CaseResult.RAW, CaseResult.DB_SCHEDULER,
                CaseResult.TRACKED);
        StringBuilder rows = new StringBuilder();
        for (CaseResult c : report.cases()) {
            if (Scenarios.isBatch(c.scenario()) || c.scenario().equals(Scenarios.CONSUME_GROWN)
                    || c.scenario().equals(Scenarios.CONSUME_RETAINED)) {
                continue;
            }
            for (String other : c.contenders()) {
                if (known.contains(other) || !c.has(other)) {
                    continue;
                }
                rows.append("| ").append(c.database()).append(" | ").append(c.scenario()).append(" | ")
                        .append(c.form()).append(" | ").append(c.workers()).append(" | ").append(cell(other))
                        .append(" | ").append(spread(c, other))
                        .append(" | ").append(c.ratio(other, CaseResult.RAW).stream()
                                .mapToObj(r -> String.format(Locale.ROOT, "%.2f", r)).findFirst().orElse("-"))
                        .append(" | ").append(c.ratio(CaseResult.TABLEQUEUE, other).stream()
                                .mapToObj(r -> String.format(Locale.ROOT, "%.2f", r)).findFirst().orElse("-"))
                        .append(" | ").append(bytes(c, other)).append(" |\n");
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        md.append("## Other contenders\n\n| database | scenario | form | workers | contender | msg/s | its / raw"
                + " | tablequeue / it | heap B/msg |\n|---|---|---|---:|---|---:|---:|---:|---:|\n");
        md.append(rows).append('\n');
    }

    private static void latency(StringBuilder md, List<LatencyResult> latencies) {
        if (latencies.isEmpty()) {
            return;
        }
        md.append("## Publish-to-handler latency (row lock, one worker)\n\n");
        md.append("| database | wake-up | samples | p50 (ms) | p99 (ms) | max (ms) |\n|---|---|---:|---:|---:|---:|\n");
        for (LatencyResult l : latencies) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2f | %.2f | %.2f |%n", l.database(),
                    l.wakeup(), l.millis().size(), l.p50(), l.p99(), l.max()));
        }
        md.append('\n');
    }

    private static void steady(StringBuilder md, List<SteadyResult> runs) {
        if (runs.isEmpty()) {
            return;
        }
        md.append("## Steady state (PostgreSQL): publishing while consuming\n\nPublishers write at a share of the"
                + " consumption case's rate (80% unless `--steady-share` says otherwise) while the subscription consumes; publish-to-handler latency (p50 / p99,"
                + " ms) of the messages published in each slice of the run, then the table's statistics at the"
                + " end, up to 60 s after the last publish (a backlog left then means the subscription fell behind)."
                + "\n\n| form | workers | share | rate (msg/s) | published | left unhandled | latency per slice | dead tuples"
                + " | live tuples | autovacuums |\n|---|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
        for (SteadyResult r : runs) {
            StringBuilder slices = new StringBuilder();
            for (int i = 0; i < r.millis().size(); i++) {
                slices.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f / %.1f", r.p50(i),
                        r.p99(i)));
            }
            md.append(String.format(Locale.ROOT, "| %s | %d | %.0f%% | %,.0f | %,d | %,d | %s (slices of %d s) | %,d | %,d | %d |%n",
                    r.form(), r.workers(), r.share() * 100, r.rate(), r.published(), r.published() - r.handled(), slices,
                    r.slice().toSeconds(), r.deadTuples(), r.liveTuples(), r.autovacuums()));
        }
        md.append('\n');
    }

    private static void targets(StringBuilder md, List<Targets.Target> targets) {
        md.append("## Targets (issues 13 and 14)\n\nMedians of the rounds; a target whose worker count or figures"
                + " this run did not measure is not measured, never failed.\n\n| target | measured | met |\n"
                + "|---|---:|---|\n");
        for (Targets.Target t : targets) {
            md.append("| ").append(cell(t.target())).append(" | ").append(t.measured()).append(" | ")
                    .append(t.met().map(met -> met ? "met" : "**not met**").orElse("not measured")).append(" |\n");
        }
        md.append('\n');
    }

    static String spread(CaseResult c, String contender) {
        if (!c.has(contender)) {
            return c.failures().stream().anyMatch(f -> f.startsWith(contender + ": ")) ? "failed" : "-";
        }
        Stats.Spread s = c.spread(contender);
        return rate(s.median()) + " (" + rate(s.best()) + " - " + rate(s.worst()) + ")";
    }

    private static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    private static String bytes(CaseResult c, String contender) {
        double b = c.has(contender) ? c.bytesPerMessage(contender) : Double.NaN;
        return Double.isNaN(b) ? "-" : String.format(Locale.ROOT, "%,.0f", b);
    }

    private static String shortest(CaseResult c) {
        return c.contenders().stream().filter(c::has).map(c::shortestSeconds).min(Double::compare)
                .map(s -> String.format(Locale.ROOT, "%.1f", s)).orElse("-");
    }

    /** Text fit for a table cell: no pipes, no line breaks. */
    static String cell(String text) {
        return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ");
    }
}
