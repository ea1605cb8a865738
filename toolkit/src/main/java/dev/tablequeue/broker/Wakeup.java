package dev.tablequeue.broker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wakes a subscription's idle workers before their poll interval ends. A wake-up that arrives while a
 * worker is claiming is kept: the worker read the sequence before it claimed, so its next wait returns at
 * once.
 */
final class Wakeup {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long sequence;

    /** The current sequence, read before a claim. */
    long sequence() {
        lock.lock();
        try {
            return sequence;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiting worker. */
    void wake() {
        lock.lock();
        try {
            sequence++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiting worker {@code nanos} from now (on the JDK's shared delay scheduler). */
    void wakeAfter(long nanos) {
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, Runnable::run).execute(this::wake);
    }

    /** Waits up to {@code nanos} unless the sequence has moved past {@code seen}; true if woken. */
    boolean await(long seen, long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            while (sequence == seen && left > 0) {
                left = changed.awaitNanos(left);
            }
            return sequence != seen;
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code timeout} {@code unit}s. */
    boolean await(long seen, long timeout, TimeUnit unit) throws InterruptedException {
        return await(seen, unit.toNanos(timeout));
    }
}
