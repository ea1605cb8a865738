package dev.tablequeue.broker;

import java.time.Duration;
import java.util.Objects;

/** What a handler answers for a delivery, and so what happens to its row. */
public sealed interface Outcome {

    /** Finishes the row: marks processed_at, or deletes the row. */
    static Outcome ack() {
        return Ack.INSTANCE;
    }

    /** Returns the row to the queue at once; its next delivery reads one more attempt. */
    static Outcome retry() {
        return Retry.INSTANCE;
    }

    /**
     * Hides the row for {@code delay}, then returns it. A table without retry_after returns it at once,
     * and the broker logs a warning.
     */
    static Outcome retryAfter(Duration delay) {
        return new RetryAfter(delay);
    }

    /** Finishes the row as {@link #ack()} does, for a message the handler gives up on. */
    static Outcome drop() {
        return Drop.INSTANCE;
    }

    /**
     * Moves the row to the subscription's dead letter now, whatever its attempt: for a message no retry will
     * mend. Where the subscription declares no dead letter, finishes the row as {@link #drop()} does.
     */
    static Outcome deadLetter() {
        return DeadLetter.INSTANCE;
    }

    /** See {@link Outcome#ack()}. */
    enum Ack implements Outcome {
        INSTANCE
    }

    /** See {@link Outcome#retry()}. */
    enum Retry implements Outcome {
        INSTANCE
    }

    /** See {@link Outcome#drop()}. */
    enum Drop implements Outcome {
        INSTANCE
    }

    /** See {@link Outcome#deadLetter()}. */
    enum DeadLetter implements Outcome {
        INSTANCE
    }

    /** See {@link Outcome#retryAfter(Duration)}. */
    record RetryAfter(Duration delay) implements Outcome {
        public RetryAfter {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("a retry delay cannot be negative: " + delay);
            }
        }
    }
}
