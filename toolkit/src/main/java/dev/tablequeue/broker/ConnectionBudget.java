package dev.tablequeue.broker;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The connections of the pool that the broker's subscriptions may hold at once: the pool's size less one,
 * so a handler's own query, a publish or a lease settlement always finds a connection. A claim that would
 * pass the budget waits, and the subscription runs fewer deliveries at once.
 */
final class ConnectionBudget {
    private final Semaphore permits;

    ConnectionBudget(int poolSize) {
        this.permits = new Semaphore(Math.max(1, poolSize - 1), true);
    }

    /** Takes a permit, waiting up to {@code millis}; false if none came. */
    boolean acquire(long millis) throws InterruptedException {
        return permits.tryAcquire(millis, TimeUnit.MILLISECONDS);
    }

    /** Takes {@code n} permits permanently (a dedicated listener connection). */
    void reserve(int n) {
        permits.acquireUninterruptibly(n);
    }

    void release() {
        permits.release();
    }
}
