package dev.tablequeue.broker;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lease delivery: its row holds the delivery's lease token, which the keeper moves on while the handler
 * runs ({@link LeaseClaimer}) and each statement of its settlement checks ({@link LeaseCompleter}).
 */
final class LeaseDelivery extends InWork {
    /** The token the row holds for this delivery; moved by each extension. */
    volatile Instant held;
    /** Orders a lease extension and the settlement, which both read and move the token. */
    final ReentrantLock lock = new ReentrantLock();
    /** Set once the listener has been told this delivery's lease was lost. */
    final AtomicBoolean lostReported = new AtomicBoolean();
    private final LeaseTransaction tx;

    LeaseDelivery(SubscriptionContext subscription, ClaimedRow row, Instant held) {
        super(subscription, row);
        this.held = held;
        this.tx = subscription.transactional ? new LeaseTransaction(subscription, this) : null;
    }

    @Override
    LeaseTransaction transaction() {
        return tx;
    }

    @Override
    Instant leaseHeld() {
        return held;
    }
}
