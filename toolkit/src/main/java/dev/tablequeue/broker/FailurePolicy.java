package dev.tablequeue.broker;

/**
 * How a subscription settles a delivery its handler never answered: one whose row did not decode, or whose
 * handler threw. A retry counts toward {@code maxAttempts}, like the handler's own.
 */
@FunctionalInterface
public interface FailurePolicy {

    /** The outcome for {@code delivery}, which failed with {@code failure}. */
    Outcome settle(Delivery delivery, Throwable failure);

    /** Drops the row (the default for rows that do not decode). */
    static FailurePolicy drop() {
        return (delivery, failure) -> Outcome.drop();
    }

    /** Returns the row at once (the default for handlers that throw). */
    static FailurePolicy retry() {
        return (delivery, failure) -> Outcome.retry();
    }

    /** Returns the row after {@code delay}. */
    static FailurePolicy retryAfter(java.time.Duration delay) {
        Outcome outcome = Outcome.retryAfter(delay);
        return (delivery, failure) -> outcome;
    }
}
