package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
    void a_claim_waits_within_its_window_for_the_workers_in_work_and_then_takes_them_all() throws Exception {
        Slots slots = waiting(8, TimeUnit.SECONDS.toNanos(30));
        assertThat(slots.take(8, NO_WAIT)).isEqualTo(8);
        free(slots, 7);
        CompletableFuture<Integer> claim = takeAsync(slots, 8);
        await().atMost(10, TimeUnit.SECONDS).until(slots::claimWaiting);
        free(slots, 1);
        assertThat(claim.get(10, TimeUnit.SECONDS)).isEqualTo(8);
    }

    @Test
    void a_claim_takes_the_workers_free_when_its_window_ends() throws Exception {
        Slots slots = waiting(8, TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(slots.take(8, NO_WAIT)).isEqualTo(8);
        free(slots, 3);
        assertThat(takeAsync(slots, 8).get(10, TimeUnit.SECONDS)).isEqualTo(3);
    }

    @Test
    void a_claim_with_nothing_in_work_takes_every_worker_at_once_whatever_the_window() throws Exception {
        Slots slots = waiting(8, TimeUnit.SECONDS.toNanos(30));
        assertThat(takeAsync(slots, 8).get(10, TimeUnit.SECONDS)).isEqualTo(8);
        free(slots, 8);
        assertThat(takeAsync(slots, 3).get(10, TimeUnit.SECONDS)).isEqualTo(3);
    }

    @Test
    void a_claim_waits_for_no_more_room_before_any_claim_was_measured() throws Exception {
        Slots slots = new Slots(8, 0, true);
        assertThat(slots.take(8, NO_WAIT)).isEqualTo(8);
        free(slots, 1);
        assertThat(takeAsync(slots, 8).get(10, TimeUnit.SECONDS)).isEqualTo(1);
    }

    @Test
    void as_claims_quicken_the_wait_for_more_room_shortens_with_them() throws Exception {
        Slots slots = waiting(8, TimeUnit.SECONDS.toNanos(30));
        // the recent claims' average falls from 30 s towards 1 µs, an eighth of the way each claim
        for (int i = 0; i < 200; i++) {
            slots.claimTook(1_000);
        }
        assertThat(slots.take(8, NO_WAIT)).isEqualTo(8);
        free(slots, 1);
        assertThat(takeAsync(slots, 8).get(10, TimeUnit.SECONDS)).isEqualTo(1);
    }

    @Test
    void a_claim_without_a_window_takes_the_one_worker_that_came_free() throws Exception {
        Slots slots = new Slots(8, 0, false);
        assertThat(slots.take(8, NO_WAIT)).isEqualTo(8);
        free(slots, 1);
        assertThat(takeAsync(slots, 8).get(10, TimeUnit.SECONDS)).isEqualTo(1);
    }

    @Test
    void the_shutdown_ends_a_claim_s_window_with_the_workers_free_by_then() throws Exception {
        Slots slots = waiting(8, TimeUnit.SECONDS.toNanos(30));
        assertThat(slots.take(8, NO_WAIT)).isEqualTo(8);
        free(slots, 2);
        CompletableFuture<Integer> claim = takeAsync(slots, 8);
        await().atMost(10, TimeUnit.SECONDS).until(slots::claimWaiting);
        slots.wake();
        assertThat(claim.get(10, TimeUnit.SECONDS)).isEqualTo(2);
    }

    @Test
    void a_claim_takes_rows_ahead_of_its_workers_while_handlers_take_less_time_than_claims() throws Exception {
        Slots slots = new Slots(4, 4, false);
        slots.claimTook(1_000_000);
        slots.handlerTook(10_000);
        assertThat(slots.take(4, NO_WAIT)).isEqualTo(8);
        assertThat(slots.take(4, NO_WAIT)).isZero();
        free(slots, 3);
        assertThat(slots.take(4, NO_WAIT)).isEqualTo(3);
    }

    @Test
    void a_claim_takes_no_row_ahead_while_handlers_take_longer_than_claims() throws Exception {
        Slots slots = new Slots(4, 4, false);
        slots.claimTook(1_000_000);
        slots.handlerTook(5_000_000);
        assertThat(slots.take(4, NO_WAIT)).isEqualTo(4);
        assertThat(slots.take(4, NO_WAIT)).isZero();
    }

    @Test
    void a_claim_takes_no_row_ahead_before_a_handler_has_returned() throws Exception {
        Slots slots = new Slots(4, 4, false);
        slots.claimTook(1_000_000);
        assertThat(slots.take(4, NO_WAIT)).isEqualTo(4);
        assertThat(slots.take(4, NO_WAIT)).isZero();
    }

    @Test
    void handlers_that_slow_down_end_the_rows_taken_ahead() throws Exception {
        Slots slots = new Slots(2, 2, false);
        slots.claimTook(1_000_000);
        slots.handlerTook(10_000);
        assertThat(slots.take(2, NO_WAIT)).isEqualTo(4);
        free(slots, 4);
        for (int i = 0; i < 20; i++) {
            slots.handlerTook(50_000_000);
        }
        assertThat(slots.take(2, NO_WAIT)).isEqualTo(2);
    }

    @Test
    void without_rows_ahead_the_durations_change_nothing() throws Exception {
        Slots slots = new Slots(4, 0, false);
        slots.claimTook(1_000_000);
        slots.handlerTook(10_000);
        assertThat(slots.ahead()).isZero();
        assertThat(slots.take(4, NO_WAIT)).isEqualTo(4);
        assertThat(slots.take(4, NO_WAIT)).isZero();
    }

    /** {@code n} handlers return and their outcomes are written. */
    /** Slots whose claims wait for more room, after a claim that took {@code claimNanos}. */
    private static Slots waiting(int workers, long claimNanos) {
        Slots slots = new Slots(workers, 0, true);
        slots.claimTook(claimNanos);
        return slots;
    }

    private static void free(Slots slots, int n) {
        for (int i = 0; i < n; i++) {
            slots.handled();
        }
        slots.settled(n);
    }

    private static CompletableFuture<Integer> takeAsync(Slots slots, int max) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return slots.take(max, TimeUnit.SECONDS.toNanos(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
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
