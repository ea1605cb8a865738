package dev.tablequeue.broker;

import java.time.Duration;
import java.util.Objects;

/**
 * How a subscription settles a delivery its handler never answered: one whose row did not decode, or whose
 * handler threw. A retry counts toward {@code maxAttempts}, like the handler's own, so a row whose attempts
 * are spent moves to the dead letter instead.
 *
 * <p>A delayed retry from a failure policy, on a table without a retryAfter column (where the row cannot be
 * hidden), is held by its worker for the delay, at most 10 seconds, and then
 * returned: so a failing row costs a worker's time instead of coming back at full speed.
 */
@FunctionalInterface
public interface FailurePolicy {

    /** The outcome for {@code delivery}, which failed with {@code failure}. */
    Outcome settle(Delivery delivery, Throwable failure);

    /**
     * Moves the row to the subscription's dead letter where it declares one, and drops it otherwise (the
     * default for rows that do not decode). Every such row is logged as an error with its id and the reason.
     */
    static FailurePolicy deadLetterOrDrop() {
        return (delivery, failure) -> Outcome.deadLetter();
    }

    /** Drops the row: it is finished as an acknowledgement finishes it. */
    static FailurePolicy drop() {
        return (delivery, failure) -> Outcome.drop();
    }

    /** Returns the row at once. */
    static FailurePolicy retry() {
        return (delivery, failure) -> Outcome.retry();
    }

    /** Returns the row after {@code delay}. */
    static FailurePolicy retryAfter(Duration delay) {
        Outcome outcome = Outcome.retryAfter(delay);
        return (delivery, failure) -> outcome;
    }

    /**
     * Returns the row after a delay that doubles with each attempt, from one second up to 15 minutes, each
     * drawn at random from the upper half of its step (the default for handlers that throw).
     */
    static FailurePolicy backoff() {
        return Backoff.DEFAULT;
    }

    /**
     * Returns the row after a delay that doubles with each attempt, from {@code first} up to {@code most},
     * each drawn at random from the upper half of its step, so that rows which failed together do not come
     * back together. Where the table has no attempt column every delay is the first step's.
     */
    static FailurePolicy backoff(Duration first, Duration most) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(most, "most");
        if (first.toMillis() < 1) {
            throw new IllegalArgumentException("the first step of a backoff must be at least a millisecond, was "
                    + first);
        }
        if (most.compareTo(first) < 0) {
            throw new IllegalArgumentException("the longest step of a backoff (" + most + ") is shorter than its"
                    + " first (" + first + ")");
        }
        return new Backoff(first, most);
    }
}
