package dev.tablequeue.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void the_steady_state_publishes_at_four_fifths_of_the_consumption_rate_unless_told_otherwise() {
        assertThat(BenchOptions.parse("--only=consume,steady").steadyShare()).isEqualTo(0.8);
        assertThat(BenchOptions.parse("--only=consume,steady --steady-share=0.5").steadyShare()).isEqualTo(0.5);
        assertThat(BenchOptions.parse("--steady-share=1").steadyShare()).isEqualTo(1.0);
    }

    @Test
    void a_share_that_is_no_share_of_the_consumption_rate_is_refused() {
        for (String share : new String[] {"0", "-0.5", "1.5", "NaN"}) {
            assertThatThrownBy(() -> BenchOptions.parse("--steady-share=" + share))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--steady-share");
        }
    }

    @Test
    void handlers_return_at_once_unless_a_handler_time_is_given_and_a_negative_one_is_refused() {
        assertThat(BenchOptions.parse("--only=consume").handlerMicros()).isZero();
        assertThat(BenchOptions.parse("--only=consume --handler-micros=5000").handlerMicros()).isEqualTo(5000);
        assertThatThrownBy(() -> BenchOptions.parse("--handler-micros=-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--handler-micros");
    }
}
