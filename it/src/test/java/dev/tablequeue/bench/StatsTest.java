package dev.tablequeue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void the_median_of_an_odd_count_is_the_middle_value_whatever_the_order() {
        assertThat(Stats.median(List.of(9.0, 1.0, 5.0))).isEqualTo(5.0);
    }

    @Test
    void the_median_of_an_even_count_is_the_mean_of_the_two_middle_values() {
        assertThat(Stats.median(List.of(4.0, 1.0, 3.0, 10.0))).isEqualTo(3.5);
    }

    @Test
    void a_spread_puts_the_highest_rate_first_and_the_lowest_last() {
        Stats.Spread s = Stats.Spread.of(List.of(5_000.0, 6_000.0, 4_000.0));
        assertThat(s.best()).isEqualTo(6_000.0);
        assertThat(s.median()).isEqualTo(5_000.0);
        assertThat(s.worst()).isEqualTo(4_000.0);
    }

    @Test
    void percentiles_take_the_nearest_rank() {
        List<Double> hundred = new ArrayList<>();
        for (int i = 100; i >= 1; i--) {
            hundred.add((double) i);
        }
        assertThat(Stats.percentile(hundred, 50)).isEqualTo(50.0);
        assertThat(Stats.percentile(hundred, 99)).isEqualTo(99.0);
        assertThat(Stats.percentile(hundred, 100)).isEqualTo(100.0);
        assertThat(Stats.percentile(List.of(3.0, 1.0, 2.0), 50)).isEqualTo(2.0);
        assertThat(Stats.percentile(List.of(7.0), 99)).isEqualTo(7.0);
    }

    @Test
    void a_percentile_out_of_range_or_of_no_samples_is_refused() {
        assertThatThrownBy(() -> Stats.percentile(List.of(1.0), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Stats.percentile(List.of(1.0), 101)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Stats.median(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_measurement_gives_rate_seconds_and_bytes_per_message() {
        Measurement m = new Measurement(6_000, 2_000_000_000L, 12_000_000);
        assertThat(m.perSecond()).isEqualTo(3_000.0);
        assertThat(m.seconds()).isEqualTo(2.0);
        assertThat(m.bytesPerMessage()).isEqualTo(2_000.0);
        assertThat(new Measurement(10, 1, -1).bytesPerMessage()).isNaN();
    }

    @Test
    void a_case_compares_medians_and_takes_the_median_of_bytes_where_counted() {
        CaseResult c = Fixtures.rowLockCase(8, List.of(900.0, 1_000.0, 1_100.0), List.of(1_000.0, 1_250.0, 1_300.0));
        assertThat(c.ratio(CaseResult.TABLEQUEUE, CaseResult.RAW)).hasValue(0.8);
        assertThat(c.ratio(CaseResult.TABLEQUEUE, CaseResult.DB_SCHEDULER)).isEmpty();
        c.add(CaseResult.DB_SCHEDULER, new Measurement(100, 1_000_000_000L, -1));
        assertThat(c.bytesPerMessage(CaseResult.DB_SCHEDULER)).isNaN();
        assertThat(c.bytesPerMessage(CaseResult.TABLEQUEUE)).isEqualTo(Fixtures.BYTES_PER_MESSAGE);
    }
}
