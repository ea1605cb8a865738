package dev.tablequeue.broker;

/**
 * Observes what a broker does with deliveries: for metrics, logs and tests. Callbacks run on the broker's
 * threads and must return quickly. Every method has an empty default.
 */
public interface BrokerListener {

    /** A delivery's outcome was written. */
    default void settled(Delivery delivery, Outcome outcome) {}

    /** A delivery's outcome could not be written (a lost lease, a closed broker, a failed statement). */
    default void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {}

    /**
     * A delivery's outcome may or may not have been written: the connection failed while its commit was under
     * way and no later attempt settled it ({@link dev.tablequeue.OutcomeUnknownException}). Not reported as a
     * {@link #settlementFailed} as well.
     */
    default void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {}

    /** A row did not decode and the decode policy settled it. */
    default void decodeFailed(Delivery delivery, Throwable failure) {}

    /** A row whose attempts are spent moved to the dead letter. */
    default void deadLettered(Delivery delivery, String destination) {}

    /** A claim failed; the loop backs off and claims again. */
    default void claimFailed(InboxQueue<?> queue, Throwable failure) {}
}
