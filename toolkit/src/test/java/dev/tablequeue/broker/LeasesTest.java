package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LeasesTest {

    @Test
    void a_claim_late_in_its_second_holds_at_least_the_declared_lease_up_to_the_next_whole_second() {
        Instant late = Instant.parse("2025-03-01T12:00:00.900Z");
        Instant expiry = Leases.expiry(late, Duration.ofSeconds(10));
        assertThat(expiry).isEqualTo(Instant.parse("2025-03-01T12:00:11Z"));
        assertThat(Duration.between(late, expiry)).isGreaterThanOrEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void a_claim_just_past_a_whole_second_still_holds_the_declared_lease() {
        Instant early = Instant.parse("2025-03-01T12:00:00.000001Z");
        assertThat(Leases.expiry(early, Duration.ofSeconds(1))).isEqualTo(Instant.parse("2025-03-01T12:00:02Z"));
    }

    @Test
    void a_claim_on_a_whole_second_holds_exactly_the_declared_lease() {
        Instant whole = Instant.parse("2025-03-01T12:00:00Z");
        assertThat(Leases.expiry(whole, Duration.ofSeconds(30))).isEqualTo(Instant.parse("2025-03-01T12:00:30Z"));
    }

    @Test
    void a_declared_lease_with_a_fraction_is_rounded_up_to_whole_seconds() {
        assertThat(Leases.whole(Duration.ofMillis(1_200), "the lease")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Leases.whole(Duration.ofMillis(300), "the lease")).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> Leases.whole(Duration.ZERO, "the lease of q"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the lease of q");
    }
}
