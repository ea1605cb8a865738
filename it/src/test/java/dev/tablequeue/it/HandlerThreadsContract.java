package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where the handlers run. A subscription of one worker runs its handler on its own claim thread, once the claim
 * has ended (nothing else would run meanwhile, and the hand-off to another thread cost more than it gave); one
 * of more workers runs each handler on a virtual thread. What a handler does to the thread it runs on never
 * stops the claims, and a pause never waits for a handler. Per-database classes name their
 * {@link TestDatabase}.
 */
public abstract class HandlerThreadsContract extends BrokerFixture {

    @ParameterizedTest
    @MethodSource("forms")
    public final void one_workers_handler_runs_on_its_claim_thread_and_more_workers_each_on_a_virtual_thread(
            Form form) {
        Queue one = queue(form);
        List<Thread> oneRanOn = new CopyOnWriteArrayList<>();
        one.emails().handle((job, d) -> {
            oneRanOn.add(Thread.currentThread());
            return Outcome.ack();
        });
        one.start().publish(5);
        one.awaitProcessed(5);
        assertThat(oneRanOn).hasSize(5).allSatisfy(thread -> {
            assertThat(thread.isVirtual()).isFalse();
            assertThat(thread.getName()).endsWith("-emails-claim-1");
        }).containsOnly(oneRanOn.get(0));

        Queue two = queue(form);
        List<Thread> twoRanOn = new CopyOnWriteArrayList<>();
        two.emails().workers(2).handle((job, d) -> {
            twoRanOn.add(Thread.currentThread());
            return Outcome.ack();
        });
        two.start().publish(5);
        two.awaitProcessed(5);
        assertThat(twoRanOn).hasSize(5).allSatisfy(thread -> {
            assertThat(thread.isVirtual()).isTrue();
            assertThat(thread.getName()).startsWith("tablequeue-handler-emails-");
        });
    }

    /**
     * A handler that leaves its thread interrupted: on the claim thread, the interrupt would end the claim loop
     * at its next wait, and the rows published after it would never be delivered.
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_handler_that_leaves_its_thread_interrupted_does_not_stop_the_claims(Form form) {
        AtomicInteger handled = new AtomicInteger();
        AtomicInteger emptyClaimsAfter = new AtomicInteger();
        Queue q = queue(form, new BrokerListener() {
            @Override
            public void claimed(InboxQueue<?> queue, int rows, Duration took) {
                if (rows == 0 && handled.get() > 0) {
                    emptyClaimsAfter.incrementAndGet();
                }
            }
        });
        q.emails().handle((job, d) -> {
            if (handled.incrementAndGet() == 1) {
                Thread.currentThread().interrupt();
            }
            return Outcome.ack();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        // a claim that finds nothing waits the poll interval, where an interrupt left set would end the loop:
        // a second empty claim comes only after such a wait
        await().atMost(PATIENCE).until(() -> emptyClaimsAfter.get() >= 2);
        q.publish(3);
        q.awaitProcessed(4);
        assertThat(handled).hasValue(4);
    }

    /** A pause from another thread returns while the one worker's handler still runs on the claim thread. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_pause_does_not_wait_for_the_handler_on_the_claim_thread(Form form) throws Exception {
        Queue q = queue(form);
        InboxQueue<?> emails = InboxQueue.of(q.b, "emails");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicBoolean pausedWhileRunning = new AtomicBoolean();
        q.emails().handle((job, d) -> {
            running.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        q.start().publish(2);
        assertThat(running.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        CompletableFuture<Void> pause = CompletableFuture.runAsync(() -> {
            q.broker.pause(emails);
            pausedWhileRunning.set(letGo.getCount() == 1);
        });
        pause.get(PATIENCE.toSeconds(), SECONDS);
        assertThat(pausedWhileRunning).isTrue();
        letGo.countDown();
        q.awaitProcessed(1);
        // paused: the second row waits
        await().during(POLL.multipliedBy(6)).atMost(PATIENCE).until(() -> q.count("processed_at is null") == 1);
        q.broker.resume(emails);
        q.awaitProcessed(2);
    }
}
