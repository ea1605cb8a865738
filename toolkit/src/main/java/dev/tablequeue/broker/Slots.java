package dev.tablequeue.broker;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The room a subscription's claims have: a worker is taken from the claim until its handler returns, and a
 * row counts as unsettled from the claim until its outcome is written. A row of a row lock claim whose
 * handler returned before the claim's last one stops counting then: it waits for that handler on the
 * claim's connection, which the broker's connection budget counts, so slow handlers in several claims never
 * fill the room while workers are free. A claim asks for every free worker at once; it waits while all
 * workers are busy, or while the outcomes not yet written reach {@link #unsettledLimit(int)} (so a
 * settlement that falls behind holds the claims back instead of piling rows up).
 *
 * <p>Claims overlap settlements: a worker is free again the moment its handler returns, so the next claim
 * runs while the last outcome is being written.
 */
final class Slots {
    private final int workers;
    private final int unsettledLimit;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int busy;
    private int unsettled;

    Slots(int workers) {
        this.workers = workers;
        this.unsettledLimit = unsettledLimit(workers);
    }

    /**
     * The most rows claimed and not yet settled: twice the workers, and at least four more than the workers,
     * so a single worker's next claims run while the settlements of the last ones are still committing.
     */
    static int unsettledLimit(int workers) {
        return workers + Math.max(workers, 4);
    }

    /**
     * Takes every free worker, up to {@code max}, waiting up to {@code nanos} for one; 0 where none came.
     * The caller gives back what its claim did not fill with {@link #giveBack(int)}.
     */
    int take(int max, long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            while (room() == 0) {
                if (left <= 0) {
                    return 0;
                }
                left = changed.awaitNanos(left);
            }
            int n = Math.min(max, room());
            busy += n;
            unsettled += n;
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Takes one free worker without waiting; false where none is free. */
    boolean tryTakeOne() {
        lock.lock();
        try {
            if (room() == 0) {
                return false;
            }
            busy++;
            unsettled++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    private int room() {
        return Math.max(0, Math.min(workers - busy, unsettledLimit - unsettled));
    }

    /** Returns {@code n} workers a claim took but found no rows for. */
    void giveBack(int n) {
        if (n == 0) {
            return;
        }
        lock.lock();
        try {
            busy -= n;
            unsettled -= n;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A handler returned: its worker is free, its outcome not yet written. */
    void handled() {
        lock.lock();
        try {
            busy--;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** {@code n} outcomes were written (or failed for good). */
    void settled(int n) {
        lock.lock();
        try {
            unsettled -= n;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every claimed row is settled, up to {@code deadline} ({@link System#nanoTime()}); true if it is. */
    boolean awaitAllSettled(long deadline) throws InterruptedException {
        lock.lock();
        try {
            while (unsettled > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.await(left, TimeUnit.NANOSECONDS);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes a claim waiting for room (at shutdown). */
    void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
