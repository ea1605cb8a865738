package dev.tablequeue.outbox.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.ShutdownSignalException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** A publish's answer is its own sequence number's confirm, whatever came before it on the channel. */
class PublishConfirmsTest {
    private final PublishConfirms confirms = new PublishConfirms();

    @Test
    void an_ack_or_a_nack_of_the_publishs_own_sequence_number_answers_it() throws Exception {
        CompletableFuture<Boolean> first = confirms.expect(1);
        confirms.handleNack(1, false);
        assertThat(first.get()).as("refused").isFalse();

        CompletableFuture<Boolean> second = confirms.expect(2);
        confirms.handleAck(2, false);
        assertThat(second.get()).as("confirmed, though the publish before it was refused").isTrue();
    }

    @Test
    void a_late_nack_of_a_publish_that_timed_out_does_not_answer_the_next_one() throws Exception {
        confirms.expect(7);
        // publish 7 timed out; publish 8 is under way when 7's nack comes
        CompletableFuture<Boolean> next = confirms.expect(8);
        confirms.handleNack(7, false);
        assertThat(next).isNotDone();
        confirms.handleAck(8, false);
        assertThat(next.get()).isTrue();
    }

    @Test
    void a_multiple_confirm_answers_every_sequence_number_up_to_its_tag() throws Exception {
        CompletableFuture<Boolean> covered = confirms.expect(4);
        confirms.handleNack(3, true);
        assertThat(covered).as("3 and below only").isNotDone();
        confirms.handleNack(5, true);
        assertThat(covered.get()).isFalse();

        CompletableFuture<Boolean> acked = confirms.expect(6);
        confirms.handleAck(6, true);
        assertThat(acked.get()).isTrue();
    }

    @Test
    void the_first_answer_stands() throws Exception {
        CompletableFuture<Boolean> answer = confirms.expect(2);
        confirms.handleAck(2, false);
        confirms.handleNack(2, true);
        assertThat(answer.get()).isTrue();
    }

    @Test
    void a_channel_that_shuts_down_before_the_confirm_fails_the_publish_with_its_signal() {
        CompletableFuture<Boolean> answer = confirms.expect(1);
        ShutdownSignalException signal = new ShutdownSignalException(false, false, null, null);
        confirms.shutdownCompleted(signal);
        assertThatThrownBy(answer::get).isInstanceOf(ExecutionException.class).hasCause(signal);
    }
}
