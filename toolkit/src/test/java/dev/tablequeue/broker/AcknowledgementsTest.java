package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The broker's count of acknowledgements per minute, the chart of a table that deletes acknowledged rows. */
class AcknowledgementsTest {
    private static final Instant NOW = Instant.parse("2031-03-14T15:09:26Z");

    @Test
    void each_acknowledgement_counts_in_the_minute_of_the_clock_it_was_written_at() {
        Acknowledgements acks = new Acknowledgements();
        acks.add(NOW);
        acks.add(NOW.minusSeconds(20));
        acks.add(NOW.minusSeconds(60));
        acks.add(NOW.minus(Duration.ofMinutes(4)));

        Throughput t = acks.read(NOW, 5);

        assertThat(t.counts()).containsExactly(1L, 0L, 0L, 1L, 2L);
        assertThat(t.from()).isEqualTo(Instant.parse("2031-03-14T15:05:00Z"));
        assertThat(t.period()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void a_minute_an_hour_old_reads_as_nothing_even_where_its_slot_was_not_reused() {
        Acknowledgements acks = new Acknowledgements();
        acks.add(NOW.minus(Duration.ofMinutes(60)));
        acks.add(NOW.minus(Duration.ofMinutes(59)));

        assertThat(acks.read(NOW, 60).counts()).containsOnlyOnce(1L).first().isEqualTo(1L);
        assertThat(acks.read(NOW.plus(Duration.ofMinutes(1)), 60).counts()).containsOnly(0L);
    }

    @Test
    void a_slot_reused_a_full_hour_later_starts_again_from_nothing() {
        Acknowledgements acks = new Acknowledgements();
        acks.add(NOW.minus(Duration.ofMinutes(60)));
        acks.add(NOW.minus(Duration.ofMinutes(60)));
        acks.add(NOW);

        assertThat(acks.read(NOW, 1).counts()).containsExactly(1L);
    }

    @Test
    void more_than_an_hour_is_refused_with_what_is_kept() {
        assertThatThrownBy(() -> new Acknowledgements().read(NOW, 61))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("last 60 minutes");
    }
}
