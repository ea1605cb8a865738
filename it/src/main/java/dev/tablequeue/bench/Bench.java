package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark harness: messages per second of tablequeue side by side with a raw JDBC loop running the
 * same SQL, per database, form and number of workers; publishing; publish-to-handler latency; and
 * db-scheduler on the same PostgreSQL. Writes {@code bench.md}, {@code bench.json} and {@code bench.svg}
 * under {@code --out}, and prints the Markdown. See {@code it/README.md} for the command and the method.
 *
 * <p>It exits non-zero where a run failed (a row left unacknowledged, an error, a timeout), and asserts no
 * time: {@code --quick} is the smoke test CI runs.
 */
public final class Bench {
    private static final String DATABASE = "tq_bench";
    private static final String DURABLE_DATABASE = "tq_bench_durable";
    private static final int PUBLISH_BATCH = 100;

    private final BenchOptions options;
    private final PrintStream log;
    private final Map<String, Map<String, String>> settings = new LinkedHashMap<>();
    private final List<CaseResult> cases = new ArrayList<>();
    private final List<LatencyResult> latencies = new ArrayList<>();
    private final List<SteadyResult> steady = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    private Bench(BenchOptions options, PrintStream log) {
        this.options = options;
        this.log = log;
    }

    /** Where a run holds its lock: two runs on one machine would drop and refill each other's bench databases. */
    static final Path LOCK = Path.of(System.getProperty("java.io.tmpdir"), "tablequeue-bench.lock");

    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parse(args);
        try (FileChannel channel = FileChannel.open(LOCK, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.tryLock()) {
            if (lock == null) {
                System.err.println("another benchmark run holds " + LOCK + ": two runs would drop each other's"
                        + " databases (" + DATABASE + ", " + DURABLE_DATABASE + ") mid-run; wait for it to end");
                System.exit(2);
            }
            runAndReport(options);
        }
    }

    private static void runAndReport(BenchOptions options) throws Exception {
        BenchReport report = new Bench(options, System.out).run();
        Files.createDirectories(options.out());
        Path md = options.out().resolve("bench.md");
        Files.writeString(md, MarkdownReport.render(report));
        Files.writeString(options.out().resolve("bench.json"), JsonReport.render(report));
        Files.writeString(options.out().resolve("bench.svg"), SvgChart.render(report));
        System.out.println();
        System.out.println(Files.readString(md));
        System.out.println("written to " + options.out().toAbsolutePath());
        if (!report.failures().isEmpty()) {
            System.err.println(report.failures().size() + " run(s) failed: see the report's notes");
            System.exit(1);
        }
        System.exit(0);
    }

    private BenchReport run() throws Exception {
        Instant started = Instant.now();
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        for (Engine engine : options.databases()) {
            log.println("== " + engine.label());
            measure(engine);
        }
        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        notes.addAll(BenchMethod.notes(options, DATABASE, DURABLE_DATABASE));
        if (options.handlerMicros() > 0) {
            notes.add("Slow handlers: in the consumption cases tablequeue's handler takes " + options.handlerMicros()
                    + " µs before it acknowledges; the raw loops do not wait, so their ratio is not the overhead.");
        }
        return new BenchReport(options.quick() ? "quick" : "full", options.rounds(),
                options.quick() ? 0 : options.seconds(), started, Duration.between(started, Instant.now()),
                Machine.describe(loadBefore, loadAfter), settings, cases, latencies, steady, notes);
    }

    private void measure(Engine engine) throws Exception {
        int poolSize = options.workers().getLast() + 4;
        boolean durableRow = engine == Engine.POSTGRES && options.runs("durable");
        try (BenchDatabase db = BenchDatabase.create(engine, DATABASE, false, poolSize);
                BenchDatabase durable = durableRow
                        ? BenchDatabase.create(engine, DURABLE_DATABASE, true, poolSize) : null) {
            settings.put(label(db), db.settings());
            if (durable != null) {
                settings.put(label(durable), durable.settings());
            }
            List<Rounds.Entry> entries = new ArrayList<>();
            for (Form form : engine.forms()) {
                if (!options.forms().contains(form) || !options.runs("consume")) {
                    continue;
                }
                for (int workers : options.workers()) {
                    entries.add(consume(db, Scenarios.CONSUME, form, workers));
                }
            }
            if (options.runs("batch")) {
                for (Form form : engine.forms()) {
                    if (options.forms().contains(form)) {
                        for (int size : BenchOptions.BATCHES) {
                            entries.add(consumeBatches(db, form, options.workers().getLast(), size));
                        }
                    }
                }
            }
            if (options.runs("growth")) {
                Form form = engine.forms().contains(Form.ROW_LOCK) ? Form.ROW_LOCK : Form.LEASE;
                if (options.forms().contains(form)) {
                    entries.add(consumeGrown(db, form, options.workers().getLast()));
                }
            }
            if (options.runs("retention")) {
                Form form = engine.forms().contains(Form.ROW_LOCK) ? Form.ROW_LOCK : Form.LEASE;
                if (options.forms().contains(form)) {
                    entries.add(consumeRetained(db, form, options.workers().getLast()));
                }
            }
            if (engine == Engine.POSTGRES && options.runs("db-scheduler")) {
                for (int workers : options.workers()) {
                    CaseResult result = new CaseResult(engine.label(), Scenarios.CONSUME, Forms.DB_SCHEDULER,
                            workers);
                    entries.add(new Rounds.Entry(result, Map.of(CaseResult.DB_SCHEDULER, n -> {
                        Measurement m = DbSchedulerRun.run(db, workers, n, timeout(n));
                        long left = DbSchedulerRun.left(db);
                        if (left != 0) {
                            throw new IllegalStateException(left + " task(s) were not completed");
                        }
                        return m;
                    })));
                }
            }
            if (durable != null) {
                for (Form form : engine.forms()) {
                    if (!options.forms().contains(form)) {
                        continue;
                    }
                    entries.add(consume(durable, Scenarios.CONSUME_DURABLE, form, options.workers().getLast()));
                }
            }
            if (options.runs("transactional")) {
                entries.addAll(transactional(db, Scenarios.CONSUME_TRANSACTIONAL));
                if (durable != null) {
                    entries.addAll(transactional(durable, Scenarios.CONSUME_TRANSACTIONAL_DURABLE));
                }
            }
            if (options.runs("publish")) {
                for (int threads : options.publishThreads()) {
                    entries.add(publish(db, Scenarios.PUBLISH_ONE, threads, 1));
                }
                for (int threads : options.publishThreads()) {
                    entries.add(publish(db, Scenarios.PUBLISH_BATCH, threads, PUBLISH_BATCH));
                }
            }
            if (options.runs("outbox")) {
                entries.addAll(outbox(db));
            }
            entries.forEach(e -> cases.add(e.result()));
            new Rounds(options, log).run(entries);
            if (engine == Engine.POSTGRES && options.runs("latency")) {
                latency(db);
            }
            if (engine == Engine.POSTGRES && options.runs("steady")) {
                steady(db);
            }
        }
    }

    private static String label(BenchDatabase db) {
        return db.engine().label() + " (" + db.name() + ")";
    }

    private Rounds.Entry consume(BenchDatabase db, String scenario, Form form, int workers) {
        CaseResult result = new CaseResult(db.engine().label(), scenario, Forms.of(form), workers);
        Map<String, Rounds.Trial> trials = new LinkedHashMap<>();
        trials.put(CaseResult.RAW, n -> Runs.consume(db, n, table -> new RawLoop(db, table, form).run(workers, n)));
        if (options.runs("batched") && RawBatchLoop.covers(db.engine(), form)) {
            trials.put(CaseResult.RAW_BATCHED, n -> Runs.consume(db, n,
                    table -> new RawBatchLoop(db, table, form, workers).run(workers, n)));
        }
        if (options.rawVirtual()) {
            trials.put(CaseResult.RAW_VIRTUAL, n -> Runs.consume(db, n,
                    table -> new RawLoop(db, table, form, true, false).run(workers, n)));
        }
        long handlerNanos = options.handlerMicros() * 1_000;
        trials.put(CaseResult.TABLEQUEUE, n -> Runs.consume(db, n,
                table -> BrokerRun.slow(db, table, form, workers, handlerNanos, n, timeout(n))));
        return new Rounds.Entry(result, trials);
    }

    /**
     * Transactional subscriptions in every form {@code db} serves, at the least and the most workers, beside the
     * raw loop of the same shape and the batched raw loop (a claim of as many rows as workers, their inserts in
     * one statement, their acknowledgement in one, one commit).
     */
    private List<Rounds.Entry> transactional(BenchDatabase db, String scenario) {
        List<Rounds.Entry> entries = new ArrayList<>();
        for (Form form : db.engine().forms()) {
            if (!options.forms().contains(form)) {
                continue;
            }
            for (int workers : options.publishThreads()) {
                CaseResult result = new CaseResult(db.engine().label(), scenario, Forms.of(form), workers);
                Map<String, Rounds.Trial> trials = new LinkedHashMap<>();
                trials.put(CaseResult.RAW, n -> Runs.consume(db, n, 0, true,
                        table -> RawLoop.transactional(db, table, form).run(workers, n)));
                if (options.runs("batched") && RawBatchLoop.covers(db.engine(), form)) {
                    trials.put(CaseResult.RAW_BATCHED, n -> Runs.consume(db, n, 0, true,
                            table -> RawBatchLoop.transactional(db, table, form, workers).run(workers, n)));
                }
                trials.put(CaseResult.TABLEQUEUE, n -> Runs.consume(db, n, 0, true,
                        table -> BrokerRun.transactional(db, table, form, workers, n, timeout(n))));
                entries.add(new Rounds.Entry(result, trials));
            }
        }
        return entries;
    }

    /**
     * tablequeue's {@code batch(size)} beside the batched raw loop claiming {@code size} rows at a time (where
     * the form has one), at {@code workers} workers.
     */
    private Rounds.Entry consumeBatches(BenchDatabase db, Form form, int workers, int size) {
        CaseResult result = new CaseResult(db.engine().label(), Scenarios.consumeBatch(size), Forms.of(form), workers);
        Map<String, Rounds.Trial> trials = new LinkedHashMap<>();
        if (options.runs("batched") && RawBatchLoop.covers(db.engine(), form)) {
            trials.put(CaseResult.RAW_BATCHED, n -> Runs.consume(db, n,
                    table -> new RawBatchLoop(db, table, form, size).run(workers, n)));
        }
        trials.put(CaseResult.TABLEQUEUE, n -> Runs.consume(db, n,
                table -> BrokerRun.run(db, table, form, workers, size, n, timeout(n))));
        return new Rounds.Entry(result, trials);
    }

    /**
     * tablequeue on a table of pending rows alone, and on one where as many acknowledged rows as
     * {@link #grownRows()} come before them: what a queue table that keeps its processed rows costs a claim.
     */
    private Rounds.Entry consumeGrown(BenchDatabase db, Form form, int workers) {
        CaseResult result = new CaseResult(db.engine().label(), Scenarios.CONSUME_GROWN, Forms.of(form), workers);
        Map<String, Rounds.Trial> trials = new LinkedHashMap<>();
        trials.put(CaseResult.TABLEQUEUE, n -> Runs.consume(db, n,
                table -> BrokerRun.run(db, table, form, workers, n, timeout(n))));
        trials.put(CaseResult.GROWN, n -> Runs.consume(db, n, grownRows(), false,
                table -> BrokerRun.run(db, table, form, workers, n, timeout(n))));
        return new Rounds.Entry(result, trials);
    }

    /**
     * The same subscription on a table whose old acknowledged rows come before its pending ones, without and with
     * the broker's retention deleting them meanwhile.
     */
    private Rounds.Entry consumeRetained(BenchDatabase db, Form form, int workers) {
        CaseResult result = new CaseResult(db.engine().label(), Scenarios.CONSUME_RETAINED, Forms.of(form), workers);
        long old = options.quick() ? BenchOptions.RETAINED_ROWS_QUICK : BenchOptions.RETAINED_ROWS;
        Map<String, Rounds.Trial> trials = new LinkedHashMap<>();
        trials.put(CaseResult.GROWN, n -> Runs.consume(db, n, old, false,
                table -> BrokerRun.run(db, table, form, workers, n, timeout(n))));
        trials.put(CaseResult.RETAINED, n -> Runs.consume(db, n, old, false,
                table -> BrokerRun.retained(db, table, form, workers, old, n, timeout(n))));
        return new Rounds.Entry(result, trials);
    }

    /** The acknowledged rows of the growth case (as {@link BenchReport#grownRows()} reports them). */
    private long grownRows() {
        return options.quick() ? BenchOptions.GROWN_ROWS_QUICK : BenchOptions.GROWN_ROWS;
    }

    private Rounds.Entry publish(BenchDatabase db, String scenario, int threads, int batch) {
        CaseResult result = new CaseResult(db.engine().label(), scenario, Forms.NONE, threads);
        Map<String, Rounds.Trial> trials = new LinkedHashMap<>();
        trials.put(CaseResult.RAW, n -> Runs.publish(db, n, t -> Publishing.raw(db, t, threads, n, batch)));
        trials.put(CaseResult.TABLEQUEUE, n -> Runs.publish(db, n,
                t -> Publishing.tablequeue(db, t, threads, n, batch)));
        return new Rounds.Entry(result, trials);
    }

    /**
     * The outbox's cases: a tracked publish (PostgreSQL) and a tracked delivery (every database), each beside the
     * untracked one.
     */
    private List<Rounds.Entry> outbox(BenchDatabase db) {
        List<Rounds.Entry> entries = new ArrayList<>();
        for (int threads : db.engine() == Engine.POSTGRES ? options.publishThreads() : List.<Integer>of()) {
            CaseResult result = new CaseResult(db.engine().label(), Scenarios.OUTBOX_PUBLISH, Forms.NONE, threads);
            Map<String, Rounds.Trial> trials = new LinkedHashMap<>();
            trials.put(CaseResult.TABLEQUEUE, n -> OutboxRun.publish(db, threads, n, false));
            trials.put(CaseResult.TRACKED, n -> OutboxRun.publish(db, threads, n, true));
            entries.add(new Rounds.Entry(result, trials));
        }
        for (int workers : options.publishThreads()) {
            CaseResult result = new CaseResult(db.engine().label(), Scenarios.OUTBOX_DELIVERY,
                    Forms.of(OutboxRun.form(db.engine())), workers);
            Map<String, Rounds.Trial> trials = new LinkedHashMap<>();
            trials.put(CaseResult.TABLEQUEUE, n -> OutboxRun.consume(db, workers, n, false, timeout(n)));
            trials.put(CaseResult.TRACKED, n -> OutboxRun.consume(db, workers, n, true, timeout(n)));
            entries.add(new Rounds.Entry(result, trials));
        }
        return entries;
    }

    private void latency(BenchDatabase db) {
        int samples = options.quick() ? 20 : 300;
        Duration poll = Duration.ofMillis(options.quick() ? 50 : 100);
        for (LatencyRun.Mode mode : LatencyRun.Mode.values()) {
            int n = mode == LatencyRun.Mode.POLLING ? Math.max(20, samples / 3) : samples;
            try {
                LatencyResult r = LatencyRun.run(db, mode, n, poll);
                latencies.add(r);
                log.printf(Locale.ROOT, "latency  %-55s p50 %7.2f ms  p99 %7.2f ms  (%d samples)%n", r.wakeup(),
                        r.p50(), r.p99(), r.millis().size());
            } catch (Exception e) {
                CaseResult failed = new CaseResult(db.engine().label(), "latency", mode.name(), 1);
                failed.fail(CaseResult.TABLEQUEUE, e.toString());
                cases.add(failed);
                log.println("FAILED   latency " + mode + ": " + e);
                e.printStackTrace(log);
            }
        }
    }

    /**
     * The steady state on PostgreSQL, row lock and lease at the most workers: publishing at 80% of the rate the
     * same run measured for the consumption case (or --steady-share), for 5 minutes (5 s in quick mode, or
     * --steady-seconds).
     */
    private void steady(BenchDatabase db) {
        int workers = options.workers().getLast();
        Duration length = options.steadySeconds() > 0 ? Duration.ofMillis((long) (options.steadySeconds() * 1000))
                : options.quick() ? Duration.ofSeconds(5) : Duration.ofMinutes(5);
        // five slices, a minute each at the full length
        Duration slice = length.dividedBy(5);
        for (Form form : List.of(Form.ROW_LOCK, Form.LEASE)) {
            if (!options.forms().contains(form)) {
                continue;
            }
            var consumed = cases.stream().filter(c -> c.database().equals(db.engine().label())
                    && c.scenario().equals(Scenarios.CONSUME) && c.form().equals(Forms.of(form))
                    && c.workers() == workers && c.has(CaseResult.TABLEQUEUE)).findFirst();
            if (consumed.isEmpty()) {
                notes.add("The steady state of the " + Forms.of(form) + " form did not run: it publishes at "
                        + Math.round(options.steadyShare() * 100) + "% of the consumption case's rate at " + workers + " workers, which this run did not measure.");
                continue;
            }
            double share = options.steadyShare();
            double rate = share * consumed.get().spread(CaseResult.TABLEQUEUE).median();
            try {
                SteadyResult r = SteadyRun.run(db, form, workers, rate, share, length, slice);
                steady.add(r);
                log.printf(Locale.ROOT, "steady   %s / %s / %d worker(s), %,.0f msg/s for %d s: dead tuples %,d%n",
                        r.database(), r.form(), workers, rate, length.toSeconds(), r.deadTuples());
            } catch (Exception e) {
                CaseResult failed = new CaseResult(db.engine().label(), "steady state", Forms.of(form), workers);
                failed.fail(CaseResult.TABLEQUEUE, e.toString());
                cases.add(failed);
                log.println("FAILED   steady state " + form + ": " + e);
                e.printStackTrace(log);
            }
        }
    }

    private static Duration timeout(long messages) {
        return Duration.ofSeconds(Math.max(60, messages / 50));
    }
}
