package dev.tablequeue.broker;

import java.time.Duration;
import java.util.List;

/**
 * Observes what a broker does with deliveries: for metrics, logs and tests. Callbacks run on the broker's
 * threads and must return quickly. Every method has an empty default.
 */
public interface BrokerListener {

    /**
     * One listener that tells each of {@code listeners}, in order, of every event (a broker takes one listener:
     * this gives it metrics, tracing and a service's own together). One that throws is logged at WARN with its
     * stack trace, and the others are still told; nothing is thrown back to the broker.
     */
    static BrokerListener all(BrokerListener... listeners) {
        return new FanOutListener(List.of(listeners));
    }

    /** As {@link #all(BrokerListener...)}, for a list. */
    static BrokerListener all(List<? extends BrokerListener> listeners) {
        return new FanOutListener(List.copyOf(listeners));
    }

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

    /**
     * A row whose attempts are spent moved to the dead letter. Reported on the thread that wrote it, just before
     * {@link #settled} reports the same delivery (with the retry its handler answered), so a listener that
     * counts retries can leave this one out.
     */
    default void deadLettered(Delivery delivery, String destination) {}

    /** A claim failed; the loop backs off and claims again. */
    default void claimFailed(InboxQueue<?> queue, Throwable failure) {}

    /**
     * A claim ended: {@code rows} rows went into work ({@code 0} where it found none), and it took
     * {@code took}, from its start (the wait for a connection included) until its rows' handlers started.
     */
    default void claimed(InboxQueue<?> queue, int rows, Duration took) {}

    /**
     * A delivery's handler returned, or threw or failed to decode and the failure policy answered: the outcome
     * to be written, and how long the decoding and the handler took. Called before the outcome is written.
     */
    default void handled(Delivery delivery, Outcome outcome, Duration took) {}

    /**
     * The lease of a delivery in work was lost: the keeper found another claim's expiry on its row, or its
     * settlement found the lease gone ({@link dev.tablequeue.LeaseLostException}). Reported once per delivery.
     */
    default void leaseLost(Delivery delivery) {}

    /**
     * A subscription stopped claiming because a handler (or its row's decoding, or a failure policy) threw
     * an {@link Error}: the deliveries in work still settle, and the broker must be closed to end it.
     */
    default void subscriptionStopped(InboxQueue<?> queue, Throwable cause) {}
}
