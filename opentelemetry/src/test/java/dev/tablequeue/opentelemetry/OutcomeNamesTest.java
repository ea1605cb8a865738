package dev.tablequeue.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.broker.Outcome;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutcomeNamesTest {

    @Test
    void each_outcome_a_handler_answers_has_the_name_the_outcome_attribute_documents() {
        assertThat(HandlerTracing.name(Outcome.ack())).isEqualTo("ack");
        assertThat(HandlerTracing.name(Outcome.retry())).isEqualTo("retry");
        assertThat(HandlerTracing.name(Outcome.retryAfter(Duration.ofSeconds(5)))).isEqualTo("retry_after");
        assertThat(HandlerTracing.name(Outcome.drop())).isEqualTo("drop");
        assertThat(HandlerTracing.name(Outcome.deadLetter())).isEqualTo("dead_letter");
    }
}
