package dev.tablequeue.broker;

import java.sql.Connection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An advisory delivery: its row's key is held by the session of the connection it was taken on, which its
 * settlement writes on, releases the key on and gives back ({@link KeyCompleter}).
 */
final class AdvisoryDelivery extends InWork {
    final Connection connection;
    final String key;
    /** Set when the key's release was not confirmed, so the connection must end its session. */
    volatile boolean evicted;
    /** Orders the settlement and a release at shutdown, which both end the key's hold. */
    final ReentrantLock lock = new ReentrantLock();
    /** Counted down once the connection has gone back, by the settlement or by a release. */
    final CountDownLatch connectionBack = new CountDownLatch(1);
    private final AdvisoryTransaction tx;

    AdvisoryDelivery(SubscriptionContext subscription, ClaimedRow row, Connection connection, String key) {
        super(subscription, row);
        this.connection = connection;
        this.key = key;
        this.tx = subscription.transactional ? new AdvisoryTransaction(subscription, this) : null;
    }

    @Override
    AdvisoryTransaction transaction() {
        return tx;
    }

    /**
     * An advisory outcome is written on the key's connection in auto-commit with the key's release, so a
     * handler middleware writes on a connection of its own.
     */
    @Override
    public boolean joinsSettlement() {
        return false;
    }
}
