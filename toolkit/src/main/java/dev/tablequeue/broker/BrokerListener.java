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

    /** A row did not decode and the decode policy settled it. */
    default void decodeFailed(Delivery delivery, Throwable failure) {}

    /** A row whose attempts are spent moved to the dead letter. */
    default void deadLettered(Delivery delivery, String destination) {}

    /** A claim failed; the loop backs off and claims again. */
    default void claimFailed(InboxQueue<?> queue, Throwable failure) {}

    /**
     * A subscription stopped claiming because a handler (or its row's decoding, or a failure policy) threw
     * an {@link Error}: the deliveries in work still settle, and the broker must be closed to end it.
     */
    default void subscriptionStopped(InboxQueue<?> queue, Throwable cause) {}
}
