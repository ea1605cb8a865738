package dev.tablequeue.broker;

import java.util.concurrent.TimeUnit;

/**
 * Writes a subscription's outcomes, one way per form: a row lock claim's outcomes together in the claim's
 * transaction ({@link ClaimCompleter}), lease outcomes in batches ({@link LeaseCompleter}), each advisory
 * outcome on the connection that holds its key ({@link KeyCompleter}), and, where the database takes one
 * writer at a time, any of these on the claim thread itself ({@link InlineCompleter}).
 *
 * <p>The subscription's loop calls every method whatever the form; a completer that has nothing to do in one
 * leaves it as the default.
 */
interface Completer {

    /** Starts the threads that write, if it has any. */
    default void start() {}

    /**
     * Takes a delivery's answer to be written; its worker is free from now on (the completer counts it
     * handled). Any thread calls it; once the completer has stopped, the outcome is written on the caller's.
     */
    void complete(Settlement.Pending p);

    /**
     * Takes the answers of a batch handler's rows at once, as {@link #complete} takes each: a completer that
     * writes queued outcomes together gets them as one arrival, so one batch is written as one (its outcomes
     * of one kind by one statement), not split by a writer that woke on its first row.
     */
    default void completeAll(java.util.List<Settlement.Pending> ps) {
        ps.forEach(this::complete);
    }

    /** On the claim thread, before each claim. */
    default void beforeClaim() {}

    /**
     * On the claim thread, while a claim waits for a budget permit: waits up to {@code sliceNanos} for one,
     * true where it came.
     */
    default boolean awaitPermit(ConnectionBudget budget, long sliceNanos) throws InterruptedException {
        return budget.acquire(TimeUnit.NANOSECONDS.toMillis(sliceNanos));
    }

    /** The claim thread has ended: no claim thread writes any more. */
    default void claimsEnded() {}

    /** At the drain, once the claim thread is done: writes what only the claim thread would have written. */
    default void drainQueued(long deadline) {}

    /** Stops accepting outcomes (a later one is written on its caller's thread) and waits up to {@code deadline}. */
    void stop(long deadline);

    /**
     * Releases what a delivery still in work holds, at the drain or for a row that does not go into work:
     * its key (and gives its connection back), or its claim's transaction; a lease is kept.
     */
    Settlement.Release release(InWork d);

    /** Waits up to {@code until} for the settlements under way when the drain released the deliveries. */
    default void awaitUnderWay(long until) {}
}
