package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShortClaimsTest {

    @Test
    void a_claim_that_came_back_short_after_another_makes_that_ones_end_wake_the_subscription() {
        ShortClaims claims = new ShortClaims();
        long first = claims.begin();
        claims.end(first, false);
        long second = claims.begin();
        claims.end(second, true);
        assertThat(claims.passedOverSince(first)).isTrue();
        assertThat(claims.passedOverSince(second)).isFalse();
    }

    @Test
    void a_claim_still_running_may_have_passed_over_what_an_earlier_one_holds() {
        ShortClaims claims = new ShortClaims();
        long first = claims.begin();
        claims.end(first, false);
        long running = claims.begin();
        assertThat(claims.passedOverSince(first)).isTrue();
        claims.end(running, false);
        assertThat(claims.passedOverSince(first)).isFalse();
    }

    @Test
    void no_claim_since_or_only_full_ones_wake_nothing() {
        ShortClaims claims = new ShortClaims();
        long first = claims.begin();
        claims.end(first, true);
        assertThat(claims.passedOverSince(first)).as("its own short claim").isFalse();
        long full = claims.begin();
        claims.end(full, false);
        assertThat(claims.passedOverSince(first)).isFalse();
    }
}
