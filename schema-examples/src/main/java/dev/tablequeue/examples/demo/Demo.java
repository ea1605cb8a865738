package dev.tablequeue.examples.demo;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.Publisher;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ShutdownReport;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * A small service on tablequeue, to run: it migrates the example tables with Flyway, enqueues jobs into
 * {@code demo_jobs} in batches, and processes them with several workers through the broker, showing its
 * progress, then checks the outcome against its {@link Plan} and the table. Some jobs fail their first
 * attempt and are retried after a short delay; a few fail every attempt and end in the dead letter.
 * With {@code --transactional} the subscription is mounted with {@code transactional()} and each handler
 * writes a row into {@code demo_results} through the delivery's transaction ({@link DemoResults}), which
 * only an acknowledgement commits; the summary then checks that table too.
 *
 * <p>The handler does no work of its own, so the jobs per second it prints are the queue's own cost on the
 * database: claim, decode, settle. Exit code 0 when every job was processed or dead-lettered as planned,
 * 1 when not (or the run failed), 2 for a command line it does not take. See schema-examples/README.md.
 */
public final class Demo {
    /** The group the jobs are published into and claimed from. */
    static final String QUEUE = "demo";
    /** The group of {@code demo_jobs} that a job whose attempts are spent moves to. */
    static final String DEAD_LETTER = "dead";
    /** How long a job that fails its first attempt stays hidden before its second. */
    static final Duration RETRY_DELAY = Duration.ofMillis(250);

    private static final int BATCH = 500;
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration TICK = Duration.ofMillis(200);
    private static final Duration STALL = Duration.ofSeconds(30);

    private Demo() {}

    public static void main(String[] args) {
        DemoOptions options;
        try {
            options = DemoOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("demo: " + e.getMessage());
            System.err.println(DemoOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(DemoOptions.USAGE);
            return;
        }
        int status;
        try {
            status = run(options, System.out, Progress.stdoutIsTerminal()).ok() ? 0 : 1;
        } catch (RuntimeException e) {
            System.out.flush();
            System.err.println("demo failed: " + e);
            status = 1;
        }
        System.exit(status);
    }

    /**
     * Runs the demo on the database {@code options} name and prints its progress and summary to {@code out}:
     * a line redrawn in place where {@code terminal}, plain lines elsewhere. Returns the summary.
     */
    static Summary run(DemoOptions options, PrintStream out, boolean terminal) {
        Plan plan = new Plan(options.jobs());
        // A connection for each worker's claim or settlement, one for the lease keeper, and the one the
        // broker never takes for itself.
        try (DemoDatabase db = DemoDatabase.open(options.url(), options.workers() + 3)) {
            out.printf(Locale.ROOT, "tablequeue demo: %,d jobs, %d workers%s, on %s%n", plan.jobs(), options.workers(),
                    options.transactional() ? ", transactional handlers" : "", db.describe());
            int applied = db.migrate();
            out.printf(Locale.ROOT, "migrated %s: %d migration(s) applied%n", db.kind().name().toLowerCase(Locale.ROOT),
                    applied);
            if (!options.transactional()) {
                return pass(plan, options, false, db, out, terminal);
            }
            // the same jobs with plain handlers first, so the run shows what transactional handlers cost
            out.println("-- plain handlers, for comparison");
            Summary plain = pass(plan, options, false, db, out, terminal);
            out.println("-- transactional handlers");
            Summary transactional = pass(plan, options, true, db, out, terminal);
            out.printf(Locale.ROOT, "transactional  %,8d   jobs/s, %.2f of the plain handlers' %,d jobs/s%n",
                    transactional.jobsPerSecond(), (double) transactional.jobsPerSecond()
                            / Math.max(1, plain.jobsPerSecond()), plain.jobsPerSecond());
            return plain.ok() ? transactional : transactional.with("the run with plain handlers failed: "
                    + plain.problems());
        }
    }

    /**
     * One run of {@code plan}'s jobs through a broker of its own on {@code db}, with transactional handlers or
     * plain ones; prints its progress and summary.
     */
    private static Summary pass(Plan plan, DemoOptions options, boolean transactional, DemoDatabase db,
            PrintStream out, boolean terminal) {
        try (DemoMeters meters = new DemoMeters()) {
            Tally tally = new Tally(plan.jobs());
            QueueBroker broker = QueueBroker.builder(db.pool()).pollInterval(POLL)
                    .listener(BrokerListener.all(tally, meters.listener())).build();
            RoleBinding<?> binding = db.binding();
            Mount<DemoJob> mount = broker.subscribe(InboxQueue.of(binding, QUEUE))
                    .payload(DemoJob.class)
                    .workers(options.workers())
                    .maxAttempts(Plan.MAX_ATTEMPTS)
                    .deadLetter(DEAD_LETTER);
            if (transactional) {
                mount.transactional().handle(DemoResults::handle);
            } else {
                mount.handle(Demo::handle);
            }
            meters.bind(broker);
            DSLContext ctx = DSL.using(db.pool(), broker.dialect().sqlDialect());
            try {
                int earlier = ctx.deleteFrom(binding.table()).execute();
                if (earlier > 0) {
                    out.printf(Locale.ROOT, "emptied %s: %,d rows of an earlier run%n", binding.tableName(), earlier);
                }
                if (transactional) {
                    int results = DemoResults.empty(ctx);
                    if (results > 0) {
                        out.printf(Locale.ROOT, "emptied demo_results: %,d rows of an earlier run%n", results);
                    }
                }
                enqueue(plan, broker.publisher(), binding, ctx, out);
                return process(plan, transactional, broker, tally, meters, ctx, binding, out, terminal);
            } finally {
                broker.close();
            }
        }
    }

    /** The handler: answers what the job's fate says. */
    static Outcome handle(DemoJob job, Delivery delivery) {
        return switch (job.fate()) {
            case SUCCEEDS -> Outcome.ack();
            case FAILS_ONCE -> delivery.attempt().orElse(1) == 1 ? Outcome.retryAfter(RETRY_DELAY) : Outcome.ack();
            case ALWAYS_FAILS -> Outcome.retry();
        };
    }

    /** Publishes the plan's jobs, {@value #BATCH} to a transaction, so a batch costs one commit. */
    private static void enqueue(Plan plan, Publisher publisher, RoleBinding<?> binding, DSLContext ctx,
            PrintStream out) {
        long start = System.nanoTime();
        int batches = 0;
        for (int first = 1; first <= plan.jobs(); first += BATCH) {
            int from = first;
            int to = Math.min(plan.jobs(), first + BATCH - 1);
            ctx.transaction(tx -> {
                for (int n = from; n <= to; n++) {
                    publisher.publish(tx.dsl(), binding, Message.of(QUEUE, new DemoJob(n, plan.fate(n))));
                }
            });
            batches++;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        out.printf(Locale.ROOT, "enqueued %,d jobs in %d transaction(s) of up to %d in %.2f s (%,d jobs/s)%n",
                plan.jobs(), batches, BATCH, took.toNanos() / 1e9, Progress.perSecond(plan.jobs(), took));
    }

    /**
     * Starts the broker, shows progress until every job has reached its end (or none has for a while), closes it;
     * counts {@code demo_results} too where the run is {@code transactional}.
     */
    private static Summary process(Plan plan, boolean transactional, QueueBroker broker, Tally tally,
            DemoMeters meters, DSLContext ctx, RoleBinding<?> binding, PrintStream out, boolean terminal) {
        Progress progress = new Progress(out, terminal, plan.jobs());
        List<String> problems = new ArrayList<>();
        long start = System.nanoTime();
        broker.start();
        long lastDone = 0;
        long lastMove = start;
        boolean finished = false;
        try {
            while (!(finished = tally.awaitFinished(TICK))) {
                long now = System.nanoTime();
                Tally.Counts counts = tally.counts();
                progress.update(counts, Duration.ofNanos(now - start));
                if (counts.done() != lastDone) {
                    lastDone = counts.done();
                    lastMove = now;
                } else if (now - lastMove > STALL.toNanos()) {
                    problems.add("no job reached its end for " + STALL.toSeconds() + " s; " + counts.done() + " of "
                            + plan.jobs() + " did");
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("interrupted");
        }
        long end = finished ? tally.lastEndNanos() : System.nanoTime();
        Duration elapsed = Duration.ofNanos(end - start);
        ShutdownReport report = broker.close();
        Tally.Counts counts = tally.counts();
        progress.finish(counts, elapsed);
        problems.addAll(check(plan, counts, ctx, binding));
        Optional<DemoResults.Counts> results = transactional ? Optional.of(DemoResults.count(ctx)) : Optional.empty();
        results.ifPresent(r -> problems.addAll(check(plan, r, ctx, binding)));
        DemoMeters.Figures figures = meters.read(binding.tableName(), QUEUE);
        Summary summary = new Summary(plan, counts, elapsed, report, figures, results, List.copyOf(problems));
        summary.print(out);
        return summary;
    }

    /** Each way the counts, or the rows left in the table, differ from the plan. */
    private static List<String> check(Plan plan, Tally.Counts counts, DSLContext ctx, RoleBinding<?> binding) {
        List<String> problems = new ArrayList<>();
        expect(problems, "jobs processed", counts.processed(), plan.processed());
        expect(problems, "jobs dead-lettered", counts.dead(), plan.dead());
        expect(problems, "retries", counts.retried(), plan.retries());
        Field<String> group = binding.column(Role.GROUP).orElseThrow().coerce(String.class);
        Field<?> processedAt = binding.column(Role.PROCESSED_AT).orElseThrow();
        String table = binding.tableName();
        expect(problems, table + " rows of group \"" + QUEUE + "\" acknowledged", acknowledged(ctx, binding),
                plan.processed());
        expect(problems, table + " rows of group \"" + QUEUE + "\" not acknowledged",
                rows(ctx, binding, group.eq(QUEUE).and(processedAt.isNull())), 0);
        expect(problems, table + " rows of group \"" + DEAD_LETTER + "\"",
                rows(ctx, binding, group.eq(DEAD_LETTER)), plan.dead());
        return problems;
    }

    /**
     * Each way {@code demo_results} differs from the jobs acknowledged in the table: a row per acknowledged job,
     * and a row from a second attempt for each job that failed its first (whose own row was rolled back).
     */
    private static List<String> check(Plan plan, DemoResults.Counts results, DSLContext ctx, RoleBinding<?> binding) {
        List<String> problems = new ArrayList<>();
        long acknowledged = acknowledged(ctx, binding);
        if (results.rows() != acknowledged) {
            problems.add(String.format(Locale.ROOT, "demo_results rows: %,d, but %,d jobs acknowledged in %s",
                    results.rows(), acknowledged, binding.tableName()));
        }
        // Only the jobs that fail once are acknowledged on a later attempt: a job whose delivery never reached its
        // handler (the broker logs why) returns by its lease with an attempt counted, and shows here.
        if (results.laterAttempts() != plan.failsOnce()) {
            problems.add(String.format(Locale.ROOT, "demo_results rows from a second attempt: %,d, planned %,d (a"
                    + " job whose delivery did not reach its handler comes back with an attempt counted)",
                    results.laterAttempts(), plan.failsOnce()));
        }
        return problems;
    }

    /** The rows of group {@value #QUEUE} that an acknowledgement stamped. */
    private static long acknowledged(DSLContext ctx, RoleBinding<?> binding) {
        Field<String> group = binding.column(Role.GROUP).orElseThrow().coerce(String.class);
        Field<?> processedAt = binding.column(Role.PROCESSED_AT).orElseThrow();
        return rows(ctx, binding, group.eq(QUEUE).and(processedAt.isNotNull()));
    }

    private static long rows(DSLContext ctx, RoleBinding<?> binding, Condition condition) {
        return ctx.fetchCount(binding.table(), condition);
    }

    private static void expect(List<String> problems, String what, long actual, long planned) {
        if (actual != planned) {
            problems.add(String.format(Locale.ROOT, "%s: %,d, planned %,d", what, actual, planned));
        }
    }
}
