package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ShutdownReport;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.Jobs;
import dev.tablequeue.test.contract.ServerSessions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fault drills, in every form each database takes: JVMs killed with {@code kill -9} while they consume, the
 * broker's connections killed on the server while it consumes, and a pool of three serving sixteen workers.
 * Each drill counts what a fault may cost (lost jobs, jobs acknowledged twice, redeliveries), prints one
 * summary line ({@code DRILL ...}, also appended to {@code target/drill-figures.txt}) and asserts the
 * invariants. {@code mvn verify} runs a short version; the system properties {@code tablequeue.drill.jobs},
 * {@code tablequeue.drill.kills} and {@code tablequeue.drill.seconds} size the long one (see the README of
 * the it module).
 *
 * <p>Acknowledgements are counted by the database itself: a trigger writes a ledger row in the transaction
 * of every update that writes a row's {@code processed_at} ({@link TestDatabase#ackLedger}), so a ledger row
 * exists exactly when an acknowledgement committed, whatever became of the process that wrote it.
 */
@Tag("drill")
public abstract class DrillContract extends BrokerFixture {
    /** The jobs of the crash and small pool drills: 600 in the build, 10,000 in the long run. */
    static final int JOBS = Integer.getInteger("tablequeue.drill.jobs", 600);
    /** How many times the crash drill kills a JVM: 2 in the build, 8 in the long run. */
    static final int KILLS = Integer.getInteger("tablequeue.drill.kills", 2);
    /** How long the connection drill kills connections: 8 s in the build, 60 s in the long run. */
    static final Duration KILLING = Duration.ofSeconds(Long.getLong("tablequeue.drill.seconds", 8));

    /** The workers of each consuming broker. */
    private static final int WORKERS = 4;
    /** The most rows a subscription of {@link #WORKERS} holds claimed and not yet settled. */
    private static final int HELD_AT_MOST = held(WORKERS);
    /** Short, so the rows a killed JVM held come back soon. */
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration DRAIN = Duration.ofSeconds(10);

    private static final Path FIGURES = Path.of("target", "drill-figures.txt");

    // ================================================================ the crash drill

    /** How long a crash drill job works: long enough that a kill finds jobs in work. */
    private static final long CRASH_WORK_MILLIS = 50;

    @ParameterizedTest
    @MethodSource("forms")
    public final void jobs_consumed_by_two_jvms_one_killed_and_restarted_are_neither_lost_nor_acknowledged_twice(
            Form form) throws Exception {
        assumeTrue(engine() != Engine.SQLITE || form != Form.ADVISORY,
                "SQLite's advisory keys are held in the process: two JVMs on one file do not see each other's");
        Jobs t = newTable();
        String deliveries = t.getName() + "_deliveries";
        String acks = t.getName() + "_acks";
        db.execute("CREATE TABLE " + deliveries + " (job_id BIGINT NOT NULL, attempt INT NOT NULL,"
                + " jvm VARCHAR(20) NOT NULL, at_us BIGINT NOT NULL)");
        db.execute(database().ackLedger(t.getName(), acks).toArray(String[]::new));
        db.execute(database().sharedByProcesses().toArray(String[]::new));
        fill(t, JOBS);

        Map<String, Long> killedAt = new LinkedHashMap<>();
        long began = System.nanoTime();
        Child survivor = start(t, form, "A", deliveries).go();
        Child victim = start(t, form, "B1", deliveries).go();
        // the restarted service, booted ahead: it starts consuming once the one before it is killed
        Child next = start(t, form, "B2", deliveries);
        int exitA;
        int exitB;
        boolean drained;
        try {
            for (int k = 1; k <= KILLS; k++) {
                String name = victim.name;
                // spread the kills over the first half of the jobs; each once the victim is at work
                long after = (long) (k - 1) * JOBS / (2L * KILLS);
                int kill = k;
                await("kill " + k + " of " + name).atMost(Duration.ofMinutes(2)).until(() -> {
                    if (count(t, "processed_at is null") == 0) {
                        throw new AssertionError("the jobs ran out before kill " + kill + " of " + KILLS
                                + ": give the drill more of them (-Dtablequeue.drill.jobs)");
                    }
                    return deliveredBy(deliveries, name) >= 20 && delivered(deliveries) >= after;
                });
                victim.kill();
                killedAt.put(name, ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()));
                victim = next.go();
                next = k < KILLS ? start(t, form, "B" + (k + 2), deliveries) : null;
            }
            drained = drains(Duration.ofMinutes(5), () -> count(t, "processed_at is null") == 0);
        } finally {
            exitA = survivor.stop();
            exitB = victim.stop();
            if (next != null) {
                next.stop();
            }
        }
        long took = Duration.ofNanos(System.nanoTime() - began).toMillis();

        Map<Long, Integer> ackCounts = ledger(acks);
        Map<Long, List<String>> byJob = new HashMap<>();
        Map<Long, List<Long>> timesByJob = new HashMap<>();
        for (Record r : dsl().fetch("select job_id, jvm, at_us from " + deliveries + " order by job_id, at_us")) {
            long job = ((Number) r.get(0)).longValue();
            byJob.computeIfAbsent(job, j -> new ArrayList<>()).add(r.get(1, String.class));
            timesByJob.computeIfAbsent(job, j -> new ArrayList<>()).add(((Number) r.get(2)).longValue());
        }
        List<Long> ids = dsl().select(t.ID).from(t).fetch(t.ID);
        long lost = ids.stream().filter(id -> !ackCounts.containsKey(id)).count();
        long ackedTwice = ackCounts.values().stream().filter(n -> n > 1).count();
        long undelivered = ids.stream().filter(id -> !byJob.containsKey(id)).count();
        int redeliveries = 0;
        List<String> notAfterAKill = new ArrayList<>();
        long recoveryMicros = -1;
        for (Map.Entry<Long, List<String>> job : byJob.entrySet()) {
            List<String> jvms = job.getValue();
            redeliveries += jvms.size() - 1;
            for (int i = 0; i < jvms.size() - 1; i++) {
                Long kill = killedAt.get(jvms.get(i));
                if (kill == null) {
                    // a delivery was followed by another though its JVM lived on
                    notAfterAKill.add("job " + job.getKey() + ": " + jvms);
                } else {
                    // how long after the kill the job was in work again
                    recoveryMicros = Math.max(recoveryMicros, timesByJob.get(job.getKey()).get(i + 1) - kill);
                }
            }
        }
        report(new Figures("crash", form, ids.size(), lost, ackedTwice, redeliveries, KILLS,
                recoveryMicros < 0 ? -1 : recoveryMicros / 1000, took,
                "undelivered=" + undelivered + " exitCodes=" + exitA + "," + exitB));

        assertThat(drained).as("every job acknowledged within 5 minutes").isTrue();
        assertThat(ids).hasSize(JOBS);
        assertThat(lost).as("jobs never acknowledged").isZero();
        assertThat(ackedTwice).as("jobs acknowledged twice").isZero();
        assertThat(undelivered).as("jobs acknowledged without a delivery").isZero();
        assertThat(notAfterAKill).as("deliveries followed by another though their JVM was not killed").isEmpty();
        // each kill costs at most the rows the killed JVM held: claimed and not yet settled
        assertThat(redeliveries).isLessThanOrEqualTo(KILLS * HELD_AT_MOST);
        assertThat(exitA).as("the exit code of the JVM that was never killed, after its close()").isZero();
        assertThat(exitB).as("the exit code of the last restarted JVM, after its close()").isZero();
    }

    /** A consuming service in a JVM of its own ({@link DrillService}), its output in {@code target/drills}. */
    private final class Child {
        final String name;
        final Process process;

        Child(String name, Process process) {
            this.name = name;
            this.process = process;
        }

        /** Tells it to start consuming. */
        Child go() throws IOException {
            process.getOutputStream().write("start\n".getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
            return this;
        }

        /** {@code kill -9}: the JVM ends at once, in whatever it was doing. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(30, SECONDS)).as(name + " ends when killed").isTrue();
        }

        /** Ends its input, so it closes its broker and exits; its exit code, or -1 where it did not exit. */
        int stop() throws InterruptedException {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // it is gone already
            }
            if (!process.waitFor(60, SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, SECONDS);
                return -1;
            }
            return process.exitValue();
        }
    }

    private Child start(Jobs t, Form form, String name, String deliveries) throws IOException {
        Path dir = Path.of("target", "drills");
        Files.createDirectories(dir);
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process process = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true",
                "-cp", System.getProperty("java.class.path"), DrillService.class.getName(),
                db.url(), t.getName(), form.name(), timeTypeName(), name, String.valueOf(WORKERS),
                String.valueOf(LEASE.toMillis()), String.valueOf(CRASH_WORK_MILLIS), deliveries)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(database() + "-" + t.getName() + "-" + name + ".log").toFile())
                .start();
        return new Child(name, process);
    }

    private long delivered(String deliveries) {
        return dsl().fetchCount(DSL.table(DSL.name(deliveries)));
    }

    private long deliveredBy(String deliveries, String jvm) {
        return dsl().fetchCount(DSL.table(DSL.name(deliveries)), DSL.field(DSL.name("jvm")).eq(jvm));
    }

    // ================================================================ the connection drill

    /** How often the connection drill kills the broker's sessions. */
    private static final Duration KILL_EVERY = Duration.ofSeconds(2);
    /**
     * How long a connection drill job works. In the lease form one in a hundred outlives a lease, so the keeper
     * must extend it across kills. Not in the other forms: a row lock or an advisory key lives as long as its
     * session, so a job longer than the time between two kills can never finish there; it is delivered again
     * after each kill until the kills stop, and such jobs soon hold every worker (the long run once saw no
     * settlement for 48 s).
     */
    private static final long CONNECTION_WORK_MILLIS = 10;
    private static final long CONNECTION_LONG_WORK_MILLIS = 2_500;
    /** The connection drill's workers: room for its long jobs and the others. */
    private static final int CONNECTION_WORKERS = 8;

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_broker_whose_connections_are_killed_every_two_seconds_recovers_loses_nothing_and_closes(
            Form form) throws Exception {
        assumeTrue(engine() != Engine.SQLITE, "an embedded database has no sessions to kill");
        Jobs t = newTable();
        String acks = t.getName() + "_acks";
        db.execute(database().ackLedger(t.getName(), acks).toArray(String[]::new));
        RoleBinding<Record> b = binding(t, form);
        Map<Long, Integer> delivered = new ConcurrentHashMap<>();
        ConcurrentSkipListSet<Long> settledAt = new ConcurrentSkipListSet<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger unknown = new AtomicInteger();
        AtomicInteger leasesLost = new AtomicInteger();
        AtomicInteger claimsFailed = new AtomicInteger();
        BrokerListener listener = new BrokerListener() {
            @Override
            public void settled(Delivery delivery, Outcome outcome) {
                settledAt.add(System.nanoTime());
            }

            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failed.incrementAndGet();
            }

            @Override
            public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
                unknown.incrementAndGet();
            }

            @Override
            public void leaseLost(Delivery delivery) {
                leasesLost.incrementAndGet();
            }

            @Override
            public void claimFailed(InboxQueue<?> queue, Throwable failure) {
                claimsFailed.incrementAndGet();
            }
        };
        List<Long> kills = new ArrayList<>();
        AtomicInteger sessionsKilled = new AtomicInteger();
        AtomicInteger published = new AtomicInteger();
        AtomicInteger publishFailures = new AtomicInteger();
        long closeMillis;
        ShutdownReport closed;
        boolean drained;
        HikariConfig adminConfig = new HikariConfig();
        adminConfig.setJdbcUrl(db.adminUrl());
        adminConfig.setMaximumPoolSize(1);
        // the broker's own pool: the drill kills every session of the database, the test's reads included
        try (HikariDataSource admin = new HikariDataSource(adminConfig); HikariDataSource brokerPool = db.pool(12)) {
            ServerSessions sessions = new ServerSessions(engine(), admin);
            QueueBroker broker = QueueBroker.builder(brokerPool).pollInterval(POLL).lease(LEASE).drainTimeout(DRAIN)
                    .listener(listener).build();
            brokers.add(broker);
            broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(CONNECTION_WORKERS)
                    .handle((job, d) -> {
                        delivered.merge(d.id(t.ID), 1, Integer::sum);
                        Thread.sleep(form == Form.LEASE && job.n() % 100 == 0 ? CONNECTION_LONG_WORK_MILLIS
                                : CONNECTION_WORK_MILLIS);
                        return Outcome.ack();
                    });
            broker.start();
            ScheduledExecutorService schedule = Executors.newScheduledThreadPool(2);
            try {
                // about a hundred jobs a second, through the broker's publisher on its pool
                schedule.scheduleAtFixedRate(() -> {
                    try {
                        broker.publisher().publish(b, Message.of("bulk", new Job(published.incrementAndGet(), "bulk")));
                    } catch (RuntimeException e) {
                        // the kill cut this publish off: it may or may not have committed, and the table says
                        publishFailures.incrementAndGet();
                    }
                }, 0, 10, MILLISECONDS);
                schedule.scheduleAtFixedRate(() -> {
                    try {
                        for (long session : sessions.connectedTo(db.name())) {
                            try {
                                sessions.kill(session);
                                sessionsKilled.incrementAndGet();
                            } catch (SQLException gone) {
                                // it ended on its own in the meantime
                            }
                        }
                        // the kill is over once the last session has ended: recovery counts from here
                        synchronized (kills) {
                            kills.add(System.nanoTime());
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException("cannot list the sessions of " + db.name(), e);
                    }
                }, KILL_EVERY.toMillis() / 2, KILL_EVERY.toMillis(), MILLISECONDS);
                // the drill's schedule runs its course
                assertThat(schedule.awaitTermination(KILLING.toMillis(), MILLISECONDS)).isFalse();
            } finally {
                schedule.shutdownNow();
                assertThat(schedule.awaitTermination(30, SECONDS)).isTrue();
            }
            // the test's own connections were killed too
            pool.getHikariPoolMXBean().softEvictConnections();
            drained = drains(Duration.ofMinutes(2), () -> count(t, "processed_at is null") == 0);
            // close() on a pool whose every connection the server has just ended
            for (long session : sessions.connectedTo(db.name())) {
                sessions.kill(session);
            }
            long before = System.nanoTime();
            closed = broker.close();
            closeMillis = Duration.ofNanos(System.nanoTime() - before).toMillis();
        }
        pool.getHikariPoolMXBean().softEvictConnections();

        long lastKill = kills.get(kills.size() - 1);
        Long afterLast = settledAt.ceiling(lastKill);
        long recovery = afterLast == null ? -1 : Duration.ofNanos(afterLast - lastKill).toMillis();
        long worst = -1;
        for (long kill : kills) {
            Long next = settledAt.ceiling(kill);
            worst = Math.max(worst, next == null ? -1 : Duration.ofNanos(next - kill).toMillis());
        }
        Map<Long, Integer> ackCounts = ledger(acks);
        List<Long> ids = dsl().select(t.ID).from(t).fetch(t.ID);
        long lost = ids.stream().filter(id -> !ackCounts.containsKey(id)).count();
        long ackedTwice = ackCounts.values().stream().filter(n -> n > 1).count();
        long undelivered = ids.stream().filter(id -> !delivered.containsKey(id)).count();
        int redeliveries = delivered.values().stream().mapToInt(n -> n - 1).sum();
        report(new Figures("connections", form, ids.size(), lost, ackedTwice, redeliveries, kills.size(), recovery,
                KILLING.toMillis(), "worstRecoveryMs=" + worst + " sessionsKilled=" + sessionsKilled
                + " publishFailures=" + publishFailures + " settlementsFailed=" + failed + " settlementsUnknown="
                + unknown + " leasesLost=" + leasesLost + " claimsFailed=" + claimsFailed + " closeMs=" + closeMillis
                + " closeReport=" + closed));

        assertThat(drained).as("every published job acknowledged within 2 minutes of the last kill").isTrue();
        assertThat(kills).hasSizeGreaterThanOrEqualTo((int) (KILLING.toMillis() / KILL_EVERY.toMillis()) - 1);
        assertThat(sessionsKilled.get()).as("sessions killed").isGreaterThanOrEqualTo(kills.size());
        assertThat(recovery).as("a settlement came after the last kill").isNotNegative();
        assertThat(lost).as("jobs never acknowledged").isZero();
        assertThat(ackedTwice).as("jobs acknowledged twice").isZero();
        assertThat(undelivered).as("jobs acknowledged without a delivery").isZero();
        // each kill costs at most the rows the broker held: claimed and not yet settled
        assertThat(redeliveries).isLessThanOrEqualTo(kills.size() * held(CONNECTION_WORKERS));
        // the keeper extends a lease on another connection where the server killed the one it used
        assertThat(leasesLost).as("leases lost").hasValue(0);
        assertThat(closeMillis).as("close() returns within its drain timeout").isLessThan(DRAIN.toMillis());
        assertThat(closed.deliveriesAbandoned()).isZero();
    }

    // ================================================================ the small pool drill

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_pool_of_three_serves_sixteen_workers_through_every_job_without_a_deadlock(Form form) {
        Jobs t = newTable();
        String acks = t.getName() + "_acks";
        db.execute(database().ackLedger(t.getName(), acks).toArray(String[]::new));
        fill(t, JOBS);
        Map<Long, Integer> delivered = new ConcurrentHashMap<>();
        AtomicInteger failures = new AtomicInteger();
        BrokerListener listener = new BrokerListener() {
            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failures.incrementAndGet();
            }

            @Override
            public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
                failures.incrementAndGet();
            }

            @Override
            public void claimFailed(InboxQueue<?> queue, Throwable failure) {
                failures.incrementAndGet();
            }
        };
        // SQLite advisory, the slowest, ran 19 jobs a second when its claim waited for a connection only its
        // own outcomes would free; the lease form runs over 1,000
        Duration bound = Duration.ofSeconds(10 + JOBS / 100);
        long took;
        boolean drained;
        try (HikariDataSource small = db.pool(3)) {
            // a connection that does not come fails the claim or the handler visibly instead of waiting on
            small.setConnectionTimeout(5_000);
            // a long poll interval: a claim that waits for a connection until its poll ends stands out
            QueueBroker broker = QueueBroker.builder(small).pollInterval(Duration.ofSeconds(5)).listener(listener)
                    .build();
            brokers.add(broker);
            broker.subscribe(InboxQueue.of(binding(t, form), "bulk")).payload(Job.class).workers(16)
                    .handle((job, d) -> {
                        delivered.merge(d.id(t.ID), 1, Integer::sum);
                        // the handler's own query, on the connection the budget leaves free
                        d.db().selectOne().fetch();
                        return Outcome.ack();
                    });
            long began = System.nanoTime();
            broker.start();
            drained = drains(bound, () -> count(t, "processed_at is null") == 0);
            took = Duration.ofNanos(System.nanoTime() - began).toMillis();
            broker.close();
        }
        Map<Long, Integer> ackCounts = ledger(acks);
        List<Long> ids = dsl().select(t.ID).from(t).fetch(t.ID);
        long lost = ids.stream().filter(id -> !ackCounts.containsKey(id)).count();
        long ackedTwice = ackCounts.values().stream().filter(n -> n > 1).count();
        int redeliveries = delivered.values().stream().mapToInt(n -> n - 1).sum();
        report(new Figures("small-pool", form, ids.size(), lost, ackedTwice, redeliveries, 0, -1, took,
                "jobsPerSecond=" + (took == 0 ? "-" : String.valueOf(ids.size() * 1000L / took)) + " failures="
                + failures));

        assertThat(drained).as("every job acknowledged within " + bound).isTrue();
        assertThat(lost).isZero();
        assertThat(ackedTwice).isZero();
        assertThat(redeliveries).as("nothing failed, so nothing came back").isZero();
        assertThat(delivered).hasSize(JOBS);
        assertThat(failures).as("failed claims and settlements").hasValue(0);
    }

    // ================================================================ fixture

    /** The most rows a subscription of {@code workers} holds claimed and not yet settled (see Slots). */
    private static int held(int workers) {
        return workers + Math.max(workers, 4);
    }

    /** One drill's figures, as its summary line gives them. */
    record Figures(String drill, Form form, long jobs, long lost, long ackedTwice, long redeliveries, int kills,
            long recoveryMillis, long tookMillis, String more) {
        String line(TestDatabase database) {
            return "DRILL " + drill + " database=" + database + " form=" + form + " jobs=" + jobs + " lost=" + lost
                    + " ackedTwice=" + ackedTwice + " redeliveries=" + redeliveries + " kills=" + kills
                    + " recoveryMs=" + (recoveryMillis < 0 ? "-" : String.valueOf(recoveryMillis))
                    + " tookMs=" + tookMillis + " " + more;
        }
    }

    private void report(Figures figures) {
        String line = figures.line(database());
        System.out.println(line);
        try {
            Files.writeString(FIGURES, line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + FIGURES.toAbsolutePath(), e);
        }
    }

    /** Whether {@code done} came true within {@code within}: the drill still reports its figures where not. */
    private static boolean drains(Duration within, java.util.concurrent.Callable<Boolean> done) {
        try {
            await().atMost(within).until(done);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** {@code n} jobs of the "bulk" group, written in batches. */
    private void fill(Jobs t, int n) {
        List<Query> inserts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            inserts.add(dsl().insertInto(t).set(t.GRP, "bulk")
                    .set(t.PAYLOAD, ("{\"n\":" + i + ",\"kind\":\"bulk\"}").getBytes(StandardCharsets.UTF_8)));
            if (inserts.size() == 500 || i == n - 1) {
                dsl().batch(inserts).execute();
                inserts.clear();
            }
        }
    }

    /** How many acknowledgements committed, by job id, as the {@link TestDatabase#ackLedger} counted them. */
    private Map<Long, Integer> ledger(String acks) {
        Map<Long, Integer> counts = new HashMap<>();
        for (Record r : dsl().fetch("select job_id, count(*) from " + acks + " group by job_id")) {
            counts.put(((Number) r.get(0)).longValue(), ((Number) r.get(1)).intValue());
        }
        return counts;
    }
}
