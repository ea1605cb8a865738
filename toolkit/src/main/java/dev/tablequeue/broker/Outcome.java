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
