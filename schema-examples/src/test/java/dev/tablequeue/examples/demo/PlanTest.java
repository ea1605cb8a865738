package dev.tablequeue.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.examples.demo.DemoJob.Fate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What a demo run should end with. */
class PlanTest {

    @Test
    void ten_thousand_jobs_dead_letter_ten_and_retry_every_seventh_once() {
        Plan plan = new Plan(10_000);
        assertThat(IntStream.rangeClosed(1, 10_000).filter(n -> plan.fate(n) == Fate.ALWAYS_FAILS))
                .containsExactly(1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000);
        assertThat(plan.dead()).isEqualTo(10);
        assertThat(plan.processed()).isEqualTo(9990);
        // 1428 multiples of 7, less 7000 which always fails, retried once; 10 jobs retried twice each.
        assertThat(plan.retries()).isEqualTo(1427 + 20);
    }

    @Test
    void even_a_small_run_dead_letters_one_job_its_last() {
        Plan plan = new Plan(200);
        assertThat(plan.fate(200)).isEqualTo(Fate.ALWAYS_FAILS);
        assertThat(plan.fate(7)).isEqualTo(Fate.FAILS_ONCE);
        assertThat(plan.fate(1)).isEqualTo(Fate.SUCCEEDS);
        assertThat(plan.dead()).isEqualTo(1);
        assertThat(plan.retries()).isEqualTo(28 + 2);
        assertThat(new Plan(1).dead()).isEqualTo(1);
        assertThat(new Plan(1).processed()).isZero();
    }
}
