package dev.tablequeue.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.testkit.LiveDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The demo's core, {@link Demo#run}, as its command runs it but in the test's JVM and with 200 jobs, on a
 * database of the test's own. Each database runs this suite through a small subclass; the tests are final.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DemoContract {
    private static final int JOBS = 200;

    /** The database under test. */
    protected abstract LiveDatabase.Engine engine();

    protected LiveDatabase db;

    @BeforeAll
    void createDatabase() {
        db = LiveDatabase.create(engine(), "demo_" + getClass().getSimpleName());
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
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed)
                .contains("enqueued 200 jobs in 1 transaction(s)")
                .contains("[##############################] 100% 200/200")
                .containsPattern("processed +199 +\\(planned 199\\)")
                .containsPattern("dead-lettered +1 +\\(planned 1, into group \"dead\"\\)")
                .contains("broker closed: ShutdownReport[")
                .contains("OK: every job was processed or dead-lettered as planned")
                .doesNotContain("\r");
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
