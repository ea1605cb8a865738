package dev.tablequeue.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's targets (and issue 13's) against reports built by hand. Rates are whole messages in exactly one
 * second, so a median at a bar divides to the bar itself.
 */
class TargetsTest {
    private final List<CaseResult> cases = new ArrayList<>();
    private final List<LatencyResult> latencies = new ArrayList<>();

    @Test
    void single_deliveries_at_8_workers_are_held_to_each_forms_bar_over_db_scheduler_at_8_threads() {
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.ROW_LOCK, 8, 8_000);
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.LEASE, 8, 6_000);
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.ADVISORY, 8, 1_000, 9_000, 4_000);
        dbScheduler(8, 4_000);
        dbScheduler(1, 100_000);

        assertTarget("PostgreSQL row lock, 8 workers: tablequeue >= 2.0 x db-scheduler at 8 threads",
                "8,000 / 4,000 = 2.00", true);
        assertTarget("PostgreSQL lease, 8 workers: tablequeue >= 1.6 x db-scheduler at 8 threads",
                "6,000 / 4,000 = 1.50", false);
        // the median of the three rounds, not the best
        assertTarget("PostgreSQL advisory, 8 workers: tablequeue >= 1.0 x db-scheduler at 8 threads",
                "4,000 / 4,000 = 1.00", true);
    }

    @Test
    void a_transactional_subscription_is_held_to_the_raw_loop_of_its_shape_per_database_form_and_worker_count() {
        tq(Databases.POSTGRES, Scenarios.CONSUME_TRANSACTIONAL, Forms.ROW_LOCK, 1, 800).add(CaseResult.RAW, at(1_000));
        tq(Databases.MARIADB, Scenarios.CONSUME_TRANSACTIONAL, Forms.LEASE, 8, 799).add(CaseResult.RAW, at(1_000));
        tq(Databases.SQLITE, Scenarios.CONSUME_TRANSACTIONAL, Forms.ADVISORY, 8, 900)
                .add(CaseResult.RAW_BATCHED, at(1_000));
        // the durable rows and the plain consumption case are not this target's
        tq(Databases.POSTGRES, Scenarios.CONSUME_TRANSACTIONAL_DURABLE, Forms.LEASE, 1, 1).add(CaseResult.RAW, at(1_000));
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.LEASE, 1, 1).add(CaseResult.RAW, at(1_000));

        assertTarget("PostgreSQL row lock transactional, 1 worker: tablequeue >= 0.8 x the same-shape raw loop",
                "800 / 1,000 = 0.80", true);
        assertTarget("MariaDB lease transactional, 8 workers: tablequeue >= 0.8 x the same-shape raw loop",
                "799 / 1,000 = 0.80", false);
        // against the raw loop of its shape, never the batched one
        assertNotMeasured("SQLite advisory transactional, 8 workers: tablequeue >= 0.8 x the same-shape raw loop");
        assertNotMeasured("PostgreSQL lease transactional, 1 worker: tablequeue >= 0.8 x the same-shape raw loop");
        assertThat(check()).noneMatch(t -> t.target().startsWith("SQLite row lock transactional"));
    }

    @Test
    void just_under_a_bar_is_not_met() {
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.ROW_LOCK, 8, 7_999);
        dbScheduler(8, 4_000);
        assertTarget("PostgreSQL row lock, 8 workers: tablequeue >= 2.0 x db-scheduler at 8 threads",
                "7,999 / 4,000 = 2.00", false);
    }

    @Test
    void at_1_worker_every_form_is_held_to_db_scheduler_at_1_thread() {
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.ROW_LOCK, 1, 3_000);
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.LEASE, 1, 2_999);
        dbScheduler(1, 3_000);
        dbScheduler(8, 1);

        assertTarget("PostgreSQL row lock, 1 worker: tablequeue >= 1.0 x db-scheduler at 1 thread",
                "3,000 / 3,000 = 1.00", true);
        assertTarget("PostgreSQL lease, 1 worker: tablequeue >= 1.0 x db-scheduler at 1 thread",
                "2,999 / 3,000 = 1.00", false);
        assertNotMeasured("PostgreSQL advisory, 1 worker: tablequeue >= 1.0 x db-scheduler at 1 thread");
    }

    @Test
    void without_db_scheduler_at_the_same_thread_count_its_targets_are_not_measured() {
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.ROW_LOCK, 1, 3_000);
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.ROW_LOCK, 8, 8_000);
        dbScheduler(4, 1);
        assertNotMeasured("PostgreSQL row lock, 1 worker: tablequeue >= 1.0 x db-scheduler at 1 thread");
        assertNotMeasured("PostgreSQL row lock, 8 workers: tablequeue >= 2.0 x db-scheduler at 8 threads");
    }

    @Test
    void single_deliveries_are_held_to_the_batched_raw_loop_of_the_same_case_in_the_forms_that_have_one() {
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.ROW_LOCK, 8, 7_500).add(CaseResult.RAW_BATCHED, at(10_000));
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.LEASE, 8, 7_499).add(CaseResult.RAW_BATCHED, at(10_000));
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.ADVISORY, 8, 7_000);

        assertTarget("PostgreSQL row lock, 8 workers: tablequeue >= 0.75 x raw batched", "7,500 / 10,000 = 0.75",
                true);
        assertTarget("PostgreSQL lease, 8 workers: tablequeue >= 0.75 x raw batched", "7,499 / 10,000 = 0.75",
                false);
        assertThat(check()).noneMatch(t -> t.target().startsWith("PostgreSQL advisory")
                && t.target().contains("raw batched"));
    }

    @Test
    void batch_64_on_postgres_is_held_to_db_scheduler_at_8_threads_and_to_the_batched_raw_loop() {
        tq(Databases.POSTGRES, Scenarios.consumeBatch(64), Forms.ROW_LOCK, 8, 20_000)
                .add(CaseResult.RAW_BATCHED, at(25_000));
        tq(Databases.POSTGRES, Scenarios.consumeBatch(64), Forms.LEASE, 8, 19_000)
                .add(CaseResult.RAW_BATCHED, at(28_000));
        tq(Databases.POSTGRES, Scenarios.consumeBatch(16), Forms.LEASE, 8, 40_000)
                .add(CaseResult.RAW_BATCHED, at(40_000));
        dbScheduler(8, 4_000);

        assertTarget("PostgreSQL row lock batch(64), 8 workers: tablequeue >= 5.0 x db-scheduler at 8 threads",
                "20,000 / 4,000 = 5.00", true);
        assertTarget("PostgreSQL row lock batch(64), 8 workers: tablequeue >= 0.7 x raw batched",
                "20,000 / 25,000 = 0.80", true);
        assertTarget("PostgreSQL lease batch(64), 8 workers: tablequeue >= 5.0 x db-scheduler at 8 threads",
                "19,000 / 4,000 = 4.75", false);
        assertTarget("PostgreSQL lease batch(64), 8 workers: tablequeue >= 0.7 x raw batched",
                "19,000 / 28,000 = 0.68", false);
        assertThat(check()).noneMatch(t -> t.target().contains("batch(16)"));
    }

    @Test
    void batch_64_on_mariadb_and_sqlite_is_held_to_the_batched_raw_loop_in_the_forms_each_serves() {
        tq(Databases.MARIADB, Scenarios.consumeBatch(64), Forms.ROW_LOCK, 8, 7_000)
                .add(CaseResult.RAW_BATCHED, at(10_000));
        tq(Databases.MARIADB, Scenarios.consumeBatch(64), Forms.LEASE, 8, 6_900)
                .add(CaseResult.RAW_BATCHED, at(10_000));
        tq(Databases.SQLITE, Scenarios.consumeBatch(64), Forms.LEASE, 8, 700).add(CaseResult.RAW_BATCHED, at(1_000));

        assertTarget("MariaDB row lock batch(64), 8 workers: tablequeue >= 0.7 x raw batched",
                "7,000 / 10,000 = 0.70", true);
        assertTarget("MariaDB lease batch(64), 8 workers: tablequeue >= 0.7 x raw batched",
                "6,900 / 10,000 = 0.69", false);
        assertTarget("SQLite lease batch(64), 8 workers: tablequeue >= 0.7 x raw batched", "700 / 1,000 = 0.70",
                true);
        List<String> others = check().stream().map(Targets.Target::target)
                .filter(t -> (t.startsWith("MariaDB") || t.startsWith("SQLite")) && t.contains("batch")).toList();
        assertThat(others).containsExactly("MariaDB row lock batch(64), 8 workers: tablequeue >= 0.7 x raw batched",
                "MariaDB lease batch(64), 8 workers: tablequeue >= 0.7 x raw batched",
                "SQLite lease batch(64), 8 workers: tablequeue >= 0.7 x raw batched");
    }

    @Test
    void sqlite_at_1_worker_is_held_to_its_one_row_raw_loop_in_each_form_it_serves() {
        tq(Databases.SQLITE, Scenarios.CONSUME, Forms.LEASE, 1, 800).add(CaseResult.RAW, at(1_000));
        tq(Databases.SQLITE, Scenarios.CONSUME, Forms.ADVISORY, 1, 799).add(CaseResult.RAW, at(1_000));
        tq(Databases.SQLITE, Scenarios.CONSUME, Forms.ADVISORY, 8, 10).add(CaseResult.RAW, at(1_000));
        tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.LEASE, 1, 10).add(CaseResult.RAW, at(1_000));

        assertTarget("SQLite lease, 1 worker: tablequeue >= 0.8 x raw", "800 / 1,000 = 0.80", true);
        assertTarget("SQLite advisory, 1 worker: tablequeue >= 0.8 x raw", "799 / 1,000 = 0.80", false);
        assertThat(check()).noneMatch(t -> t.target().startsWith("SQLite row lock"));
    }

    @Test
    void heap_per_message_is_held_to_twice_the_raw_loops_per_form_at_1_and_8_workers() {
        heapCase(Forms.ROW_LOCK, 1, 3_000, 1_500);
        heapCase(Forms.ROW_LOCK, 8, 3_001, 1_500);
        CaseResult uncounted = tq(Databases.POSTGRES, Scenarios.CONSUME, Forms.LEASE, 1, 1_000);
        uncounted.add(CaseResult.RAW, new Measurement(1_000, 1_000_000_000L, -1));

        assertTarget("PostgreSQL row lock, 1 worker: tablequeue's heap B/msg <= 2.0 x raw's",
                "3,000 / 1,500 = 2.00", true);
        assertTarget("PostgreSQL row lock, 8 workers: tablequeue's heap B/msg <= 2.0 x raw's",
                "3,001 / 1,500 = 2.00", false);
        assertNotMeasured("PostgreSQL lease, 1 worker: tablequeue's heap B/msg <= 2.0 x raw's");
        assertNotMeasured("PostgreSQL advisory, 8 workers: tablequeue's heap B/msg <= 2.0 x raw's");
    }

    @Test
    void the_growth_the_notify_latency_and_the_outbox_cost_are_kept() {
        CaseResult grown = tq(Databases.POSTGRES, Scenarios.CONSUME_GROWN, Forms.ROW_LOCK, 8, 10_000);
        grown.add(CaseResult.GROWN, at(9_000));
        CaseResult outbox = tq(Databases.POSTGRES, Scenarios.OUTBOX_PUBLISH, Forms.NONE, 1, 13_000);
        outbox.add(CaseResult.TRACKED, at(10_000));
        latencies.add(new LatencyResult(Databases.POSTGRES, Wakeups.LISTEN_NOTIFY, List.of(4.0, 4.99, 6.0)));

        assertTarget("PostgreSQL row lock, 8 workers, behind acknowledged rows: >= 0.9 x the pending rows alone",
                "9,000 / 10,000 = 0.90", true);
        assertTarget("PostgreSQL outbox, 1 thread: a tracked publish in the caller's transaction costs <= 1.3 x an"
                + " untracked one", "13,000 / 10,000 = 1.30", true);
        assertTarget("PostgreSQL LISTEN/NOTIFY publish-to-handler p50 < 5.0 ms", "4.99 ms", true);

        grown.add(CaseResult.GROWN, at(8_000));
        grown.add(CaseResult.GROWN, at(8_999));
        outbox.add(CaseResult.TABLEQUEUE, at(13_001));
        outbox.add(CaseResult.TABLEQUEUE, at(14_000));
        latencies.set(0, new LatencyResult(Databases.POSTGRES, Wakeups.LISTEN_NOTIFY, List.of(4.0, 5.0, 6.0)));
        assertTarget("PostgreSQL row lock, 8 workers, behind acknowledged rows: >= 0.9 x the pending rows alone",
                "8,999 / 10,000 = 0.90", false);
        assertTarget("PostgreSQL outbox, 1 thread: a tracked publish in the caller's transaction costs <= 1.3 x an"
                + " untracked one", "13,001 / 10,000 = 1.30", false);
        assertTarget("PostgreSQL LISTEN/NOTIFY publish-to-handler p50 < 5.0 ms", "5.00 ms", false);
    }

    @Test
    void claims_while_retention_deletes_are_held_to_nine_tenths_of_the_same_table_without_it_per_database() {
        CaseResult sqlite = new CaseResult(Databases.SQLITE, Scenarios.CONSUME_RETAINED, Forms.LEASE, 8);
        sqlite.add(CaseResult.GROWN, at(2_000));
        sqlite.add(CaseResult.RETAINED, at(1_800));
        cases.add(sqlite);
        String what = "SQLite lease, 8 workers, while retention deletes acknowledged rows: >= 0.9 x without retention";
        assertTarget(what, "1,800 / 2,000 = 0.90", true);
        assertNotMeasured("PostgreSQL row lock, 8 workers, while retention deletes acknowledged rows: >= 0.9 x"
                + " without retention");

        sqlite.add(CaseResult.RETAINED, at(1_799));
        sqlite.add(CaseResult.RETAINED, at(1_700));
        assertTarget(what, "1,799 / 2,000 = 0.90", false);
    }

    @Test
    void a_tracked_delivery_is_held_to_its_cost_per_database_and_worker_count() {
        CaseResult sqlite = tq(Databases.SQLITE, Scenarios.OUTBOX_DELIVERY, Forms.LEASE, 8, 13_000);
        sqlite.add(CaseResult.TRACKED, at(10_000));
        tq(Databases.MARIADB, Scenarios.OUTBOX_DELIVERY, Forms.ROW_LOCK, 1, 13_001).add(CaseResult.TRACKED, at(10_000));

        assertTarget("SQLite outbox lease, 8 workers: a tracked delivery costs <= 1.3 x an untracked one",
                "13,000 / 10,000 = 1.30", true);
        assertTarget("MariaDB outbox row lock, 1 worker: a tracked delivery costs <= 1.3 x an untracked one",
                "13,001 / 10,000 = 1.30", false);
        assertNotMeasured("PostgreSQL outbox row lock, 8 workers: a tracked delivery costs <= 1.3 x an untracked one");
    }

    @Test
    void a_run_without_8_workers_leaves_the_8_worker_targets_not_measured_and_checks_the_1_worker_ones() {
        for (int workers : List.of(1, 4)) {
            for (String form : List.of(Forms.ROW_LOCK, Forms.LEASE, Forms.ADVISORY)) {
                tq(Databases.POSTGRES, Scenarios.CONSUME, form, workers, 1).add(CaseResult.RAW, at(1_000));
            }
            dbScheduler(workers, 1_000);
        }
        tq(Databases.POSTGRES, Scenarios.consumeBatch(64), Forms.ROW_LOCK, 4, 1).add(CaseResult.RAW_BATCHED, at(10));

        List<Targets.Target> targets = check();
        assertThat(targets).filteredOn(t -> t.target().contains("8 workers") || t.target().contains("8 threads"))
                .hasSize(30).allSatisfy(t -> {
                    assertThat(t.measured()).isEqualTo("not measured");
                    assertThat(t.met()).isEmpty();
                });
        assertThat(targets).filteredOn(t -> t.target().endsWith("x db-scheduler at 1 thread"))
                .hasSize(3).allSatisfy(t -> {
                    assertThat(t.measured()).isEqualTo("1 / 1,000 = 0.00");
                    assertThat(t.met()).contains(false);
                });
    }

    @Test
    void an_empty_report_measures_nothing_and_fails_nothing_and_the_issue_4_bars_are_gone() {
        List<Targets.Target> targets = check();
        assertThat(targets).hasSize(51).allSatisfy(t -> {
            assertThat(t.measured()).isEqualTo("not measured");
            assertThat(t.met()).isEmpty();
        });
        assertThat(targets).noneMatch(t -> t.target().matches(".*tablequeue >= [0-9.]+ x raw$")
                && t.target().startsWith("PostgreSQL"));
        assertThat(targets).noneMatch(t -> t.target().contains(">= 1.5 x db-scheduler"));
    }

    private List<Targets.Target> check() {
        return Targets.check(new BenchReport("full", 3, 3.0, Instant.parse("2026-01-02T03:04:05Z"),
                Duration.ofSeconds(1), Map.of(), Map.of(), cases, latencies, List.of(), List.of()));
    }

    private void assertTarget(String target, String measured, boolean met) {
        assertThat(check()).filteredOn(t -> t.target().equals(target)).singleElement().satisfies(t -> {
            assertThat(t.measured()).isEqualTo(measured);
            assertThat(t.met()).isEqualTo(Optional.of(met));
        });
    }

    private void assertNotMeasured(String target) {
        assertThat(check()).filteredOn(t -> t.target().equals(target)).singleElement().satisfies(t -> {
            assertThat(t.measured()).isEqualTo("not measured");
            assertThat(t.met()).isEmpty();
        });
    }

    /** A case with tablequeue's rounds at {@code rates}. */
    private CaseResult tq(String database, String scenario, String form, int workers, double... rates) {
        CaseResult c = new CaseResult(database, scenario, form, workers);
        Arrays.stream(rates).forEach(r -> c.add(CaseResult.TABLEQUEUE, at(r)));
        cases.add(c);
        return c;
    }

    private void dbScheduler(int workers, double rate) {
        CaseResult c = new CaseResult(Databases.POSTGRES, Scenarios.CONSUME, Forms.DB_SCHEDULER, workers);
        c.add(CaseResult.DB_SCHEDULER, at(rate));
        cases.add(c);
    }

    private void heapCase(String form, int workers, long tablequeueBytes, long rawBytes) {
        CaseResult c = new CaseResult(Databases.POSTGRES, Scenarios.CONSUME, form, workers);
        c.add(CaseResult.TABLEQUEUE, new Measurement(1_000, 1_000_000_000L, 1_000 * tablequeueBytes));
        c.add(CaseResult.RAW, new Measurement(1_000, 1_000_000_000L, 1_000 * rawBytes));
        cases.add(c);
    }

    /** {@code rate} messages in exactly one second: its rate is {@code rate} to the last bit. */
    private static Measurement at(double rate) {
        return new Measurement((long) rate, 1_000_000_000L, 0);
    }
}
