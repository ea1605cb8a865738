package dev.tablequeue.examples.demo;

import static dev.tablequeue.examples.jooq.Tables.DEMO_RESULTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.examples.demo.DemoJob.Fate;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The demo's core, {@link Demo#run}, as its command runs it but in the test's JVM and with 200 jobs (300 for
 * the transactional run), on a database of the test's own. Each database runs this suite through a small
 * subclass; the tests are final.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DemoContract {
    private static final int JOBS = 200;
    private static final int TRANSACTIONAL_JOBS = 300;

    /** The database under test. */
    protected abstract Engine engine();

    protected FreshDatabase db;

    @BeforeAll
    void createDatabase() {
        db = FreshDatabase.create(engine(), "demo_" + getClass().getSimpleName());
    }

    @AfterAll
    void dropDatabase() {
        if (db != null) {
            db.close();
        }
    }

    @Test
    final void every_job_is_processed_or_dead_lettered_as_planned_and_the_summary_says_so() {
        Plan plan = new Plan(JOBS);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        Summary summary = run(out, "--jobs " + JOBS, "--workers", "4", "--url", db.url());

        assertThat(summary.problems()).isEmpty();
        assertThat(summary.processed() + summary.dead()).isEqualTo(JOBS);
        assertThat(summary.dead()).isEqualTo(plan.dead()).isEqualTo(1);
        assertThat(summary.retried()).isPositive().isEqualTo(plan.retries());
        assertThat(summary.ok()).isTrue();
        assertThat(summary.results()).isEmpty();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed)
                .contains("enqueued 200 jobs in 1 transaction(s)")
                .contains("[##############################] 100% 200/200")
                .containsPattern("processed +199 +\\(planned 199\\)")
                .containsPattern("dead-lettered +1 +\\(planned 1, into group \"dead\"\\)")
                .contains("broker closed: ShutdownReport[")
                .contains("OK: every job was processed or dead-lettered as planned")
                .doesNotContain("transactional")
                .doesNotContain("demo_results")
                .doesNotContain("\r");
    }

    @Test
    final void a_transactional_run_commits_one_result_per_acknowledged_job_and_none_of_a_rolled_back_attempt()
            throws SQLException {
        Plan plan = new Plan(TRANSACTIONAL_JOBS);
        // an earlier transactional run leaves its results, which the next one empties first
        run(new ByteArrayOutputStream(), "--jobs", "20", "--transactional", "--url", db.url());
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        Summary summary = run(out, "--jobs", String.valueOf(TRANSACTIONAL_JOBS), "--transactional", "--url", db.url());

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(summary.problems()).as(printed).isEmpty();
        assertThat(summary.dead()).isEqualTo(plan.dead()).isEqualTo(1);
        assertThat(summary.retried()).isEqualTo(plan.retries());
        assertThat(summary.results()).contains(new DemoResults.Counts(plan.processed(), plan.failsOnce()));
        // what a connection of the test's own reads: each acknowledged job's row, written by the attempt that
        // was acknowledged; a job that failed its first attempt has only its second's, one that always failed none
        Map<Integer, Integer> expected = new HashMap<>();
        for (int n = 1; n <= TRANSACTIONAL_JOBS; n++) {
            Fate fate = plan.fate(n);
            if (fate != Fate.ALWAYS_FAILS) {
                expected.put(n, fate == Fate.FAILS_ONCE ? 2 : 1);
            }
        }
        try (Connection c = db.connect()) {
            assertThat(DSL.using(c).select(DEMO_RESULTS.JOB, DEMO_RESULTS.ATTEMPT).from(DEMO_RESULTS)
                    .fetchMap(DEMO_RESULTS.JOB, DEMO_RESULTS.ATTEMPT)).isEqualTo(expected);
        }
        assertThat(printed)
                .contains("tablequeue demo: 300 jobs, 4 workers, transactional handlers, on ")
                .contains("emptied demo_results: 19 rows of an earlier run")
                .contains("-- plain handlers, for comparison")
                .contains("-- transactional handlers")
                .containsPattern("transactional +[0-9,]+ +jobs/s, [0-9.]+ of the plain handlers' [0-9,]+ jobs/s")
                .containsPattern("processed +299 +\\(planned 299\\)")
                .containsPattern("results +299 +\\(acknowledged 299; rows in demo_results, "
                        + plan.failsOnce() + " from a second attempt\\)")
                .contains("OK: every job was processed or dead-lettered as planned");
    }

    @Test
    final void the_micrometer_meters_printed_at_the_end_agree_with_what_the_run_did() {
        Plan plan = new Plan(JOBS);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        Summary summary = run(out, "--jobs", String.valueOf(JOBS), "--workers", "4", "--url", db.url());

        DemoMeters.Figures m = summary.meters();
        assertThat(m.acknowledged()).isEqualTo(plan.processed());
        assertThat(m.retried()).isEqualTo(plan.retries());
        assertThat(m.deadLettered()).isEqualTo(plan.dead());
        assertThat(m.dropped()).isZero();
        assertThat(m.decodeFailures()).isZero();
        assertThat(m.settlementFailures()).isZero();
        // every delivery was claimed once: the first attempts, the retries, and the last attempts of the dead
        long deliveries = plan.processed() + plan.retries() + plan.dead();
        assertThat(m.claimed()).isEqualTo(deliveries);
        assertThat(m.handler().count()).isEqualTo(deliveries);
        assertThat(m.claims().count()).isPositive();
        assertThat(m.pendingRows()).isZero();
        assertThat(m.deadRows()).isEqualTo(plan.dead());
        assertThat(out.toString(StandardCharsets.UTF_8))
                .containsPattern("tablequeue.deliveries.settled\\{outcome=acknowledged} +" + plan.processed() + "\n")
                .containsPattern("tablequeue.deliveries.settled\\{outcome=dead_lettered} +" + plan.dead() + "\n")
                .containsPattern("tablequeue.handler +" + deliveries + " runs, mean [0-9.]+ ms");
    }

    @Test
    final void a_second_run_on_the_same_database_migrates_nothing_and_starts_from_an_empty_queue() {
        run(new ByteArrayOutputStream(), "--jobs", "20", "--url", db.url());
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        Summary again = run(out, "--jobs", "20", "--url", db.url());

        assertThat(again.ok()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("0 migration(s) applied")
                .contains("emptied demo_jobs: 20 rows of an earlier run");
    }

    /** Runs the demo with {@code args}, printing into {@code out} as to a pipe (no terminal). */
    protected static Summary run(ByteArrayOutputStream out, String... args) {
        try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            return Demo.run(DemoOptions.parse(args), print, false);
        }
    }
}
