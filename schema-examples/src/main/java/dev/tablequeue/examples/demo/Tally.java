package dev.tablequeue.examples.demo;

import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what the broker did with the demo's deliveries, from its listener's callbacks (so a count moves
 * only once an outcome is written), and opens a latch when every job has reached its end: acknowledged or
 * dead-lettered.
 */
final class Tally implements BrokerListener {
    private final LongAdder processed = new LongAdder();
    private final LongAdder retryOutcomes = new LongAdder();
    private final LongAdder dead = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private final CountDownLatch finished;
    private volatile long lastEndNanos;

    Tally(int jobs) {
        this.finished = new CountDownLatch(jobs);
    }

    /** What was counted so far. */
    record Counts(long processed, long retried, long dead, long failures, String firstFailure) {
        /** Jobs at their end. */
        long done() {
            return processed + dead;
        }
    }

    Counts counts() {
        long deadNow = dead.sum();
        // A retry that spent the last attempt is written as a dead letter, and reported as both; it returned
        // no row to the queue, so it is not counted as a retry. (For an instant between the two callbacks
        // a live reading may count it once more.)
        long retried = Math.max(0, retryOutcomes.sum() - deadNow);
        return new Counts(processed.sum(), retried, deadNow, failures.sum(), firstFailure.get());
    }

    /** The {@link System#nanoTime()} at which the latest job reached its end (0 before the first). */
    long lastEndNanos() {
        return lastEndNanos;
    }

    /** Waits up to {@code timeout} for every job to reach its end; true once they all have. */
    boolean awaitFinished(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void settled(Delivery delivery, Outcome outcome) {
        switch (outcome) {
            case Outcome.Ack ack -> {
                processed.increment();
                ended();
            }
            case Outcome.Retry retry -> retryOutcomes.increment();
            case Outcome.RetryAfter retry -> retryOutcomes.increment();
            case Outcome.Drop drop -> failure("delivery " + delivery.id() + " was dropped, which the demo never does");
            // only a row that does not decode is sent there at once, and decodeFailed counts it as a failure
            case Outcome.DeadLetter deadLetter -> { }
        }
    }

    @Override
    public void deadLettered(Delivery delivery, String destination) {
        dead.increment();
        ended();
    }

    @Override
    public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
        failure("the outcome of delivery " + delivery.id() + " was not written: " + failure);
    }

    @Override
    public void decodeFailed(Delivery delivery, Throwable failure) {
        failure("delivery " + delivery.id() + " did not decode: " + failure);
    }

    @Override
    public void claimFailed(InboxQueue<?> queue, Throwable failure) {
        failure("a claim on " + queue + " failed (the broker claims again): " + failure);
    }

    private void ended() {
        lastEndNanos = System.nanoTime();
        finished.countDown();
    }

    private void failure(String what) {
        failures.increment();
        firstFailure.compareAndSet(null, what);
    }
}
