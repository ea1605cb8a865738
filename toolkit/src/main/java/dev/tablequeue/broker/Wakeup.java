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
    /** The run of {@link #wakeRepeatedly} under way; a new one ends the one before. */
    private long repeating;

    /** The first gap of {@link #wakeRepeatedly}. */
    static final long FIRST_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

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

    /**
     * Wakes every waiting worker now, then again after gaps that double from {@link #FIRST_GAP_NANOS} while
     * they stay under {@code limitNanos} (the poll interval): for a row published in a transaction whose
     * commit the broker cannot see, so a claim finds it soon after the commit at the cost of a few empty
     * claims. A later call starts the gaps over and ends the earlier run.
     */
    void wakeRepeatedly(long limitNanos) {
        long run;
        lock.lock();
        try {
            sequence++;
            changed.signalAll();
            run = ++repeating;
        } finally {
            lock.unlock();
        }
        repeatAfter(run, FIRST_GAP_NANOS, limitNanos);
    }

    private void repeatAfter(long run, long gap, long limitNanos) {
        if (gap >= limitNanos) {
            return;
        }
        CompletableFuture.delayedExecutor(gap, TimeUnit.NANOSECONDS, Runnable::run).execute(() -> {
            lock.lock();
            try {
                if (run != repeating) {
                    return;
                }
                sequence++;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            repeatAfter(run, gap * 2, limitNanos);
        });
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
