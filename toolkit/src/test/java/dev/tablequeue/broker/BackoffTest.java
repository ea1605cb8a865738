package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void each_step_doubles_the_last_up_to_the_longest() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(10));
        assertThat(backoff.step(1)).isEqualTo(1_000);
        assertThat(backoff.step(2)).isEqualTo(2_000);
        assertThat(backoff.step(4)).isEqualTo(8_000);
        assertThat(backoff.step(5)).isEqualTo(10_000);
        assertThat(backoff.step(Integer.MAX_VALUE)).isEqualTo(10_000);
    }

    @Test
    void a_delay_lies_in_the_upper_half_of_its_step_and_varies() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(15));
        Set<Duration> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            Duration third = backoff.delay(OptionalInt.of(3));
            assertThat(third).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(4));
            seen.add(third);
        }
        assertThat(seen).hasSizeGreaterThan(50);
    }

    @Test
    void a_row_without_an_attempt_count_waits_the_first_step() {
        Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10));
        for (int i = 0; i < 50; i++) {
            assertThat(backoff.delay(OptionalInt.empty())).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
        }
    }

    @Test
    void the_default_starts_at_one_second_and_stops_at_fifteen_minutes() {
        assertThat(Backoff.DEFAULT.step(1)).isEqualTo(1_000);
        assertThat(Backoff.DEFAULT.step(40)).isEqualTo(Duration.ofMinutes(15).toMillis());
        assertThat(FailurePolicy.backoff()).isSameAs(Backoff.DEFAULT);
    }

    @Test
    void a_backoff_whose_steps_cannot_grow_is_refused_naming_the_setting() {
        assertThatThrownBy(() -> FailurePolicy.backoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("first step");
        assertThatThrownBy(() -> FailurePolicy.backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longest step");
    }
}
