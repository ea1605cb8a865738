package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SlotsTest {
    private static final long NO_WAIT = 0;

    @Test
    void a_claim_takes_every_free_worker_up_to_its_maximum() throws Exception {
        Slots slots = new Slots(8);
        assertThat(slots.take(3, NO_WAIT)).isEqualTo(3);
        assertThat(slots.take(8, NO_WAIT)).isEqualTo(5);
        assertThat(slots.take(8, NO_WAIT)).isZero();
    }

    @Test
    void workers_a_claim_did_not_fill_are_free_again() throws Exception {
        Slots slots = new Slots(4);
        assertThat(slots.take(4, NO_WAIT)).isEqualTo(4);
        slots.giveBack(3);
        assertThat(slots.take(4, NO_WAIT)).isEqualTo(3);
    }

    @Test
    void a_worker_is_free_when_its_handler_returns_before_its_outcome_is_written() throws Exception {
        Slots slots = new Slots(1);
        assertThat(slots.take(1, NO_WAIT)).isEqualTo(1);
        assertThat(slots.take(1, NO_WAIT)).isZero();
        slots.handled();
        assertThat(slots.take(1, NO_WAIT)).isEqualTo(1);
    }

    @Test
    void unwritten_outcomes_at_the_limit_hold_the_next_claim_back_until_one_is_written() throws Exception {
        Slots slots = new Slots(1);
        int limit = Slots.unsettledLimit(1);
        for (int i = 0; i < limit; i++) {
            assertThat(slots.take(1, NO_WAIT)).isEqualTo(1);
            slots.handled();
        }
        assertThat(slots.take(1, NO_WAIT)).isZero();
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return slots.take(1, TimeUnit.SECONDS.toNanos(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        slots.settled(1);
        assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo(1);
    }

    @Test
    void the_drain_sees_every_claimed_row_settled() throws Exception {
        Slots slots = new Slots(2);
        assertThat(slots.take(2, NO_WAIT)).isEqualTo(2);
        slots.handled();
        slots.handled();
        assertThat(slots.awaitAllSettled(System.nanoTime())).isFalse();
        slots.settled(2);
        assertThat(slots.awaitAllSettled(System.nanoTime())).isTrue();
    }
}
