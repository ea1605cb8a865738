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
 *
 * <p>A claim that finds fewer workers free than it could fill, while other rows are still in work, waits up to
 * a short window ({@link QueueBroker.Builder#claimWindow}) for more of them to free: without it, workers that
 * free one after another each start a claim of their own (a statement, and in the row lock form a commit) for
 * one or two rows, and the claims stay that small for as long as the load lasts. With it, one claim serves
 * them all. The window never delays a claim on an idle subscription, where nothing is in work.
 */
final class Slots {
    private final int workers;
    private final int unsettledLimit;
    private final long windowNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int busy;
    private int unsettled;
    /** Set at shutdown: a claim waiting for more room takes what it has. */
    private boolean stopping;

    /** Room for {@code workers}; a claim takes what is free at once. */
    Slots(int workers) {
        this(workers, 0);
    }

    /** Room for {@code workers}; a claim waits up to {@code windowNanos} for more room while rows are in work. */
    Slots(int workers, long windowNanos) {
        this.workers = workers;
        this.unsettledLimit = unsettledLimit(workers);
        this.windowNanos = windowNanos;
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
     * Where fewer than {@code max} are free and rows are in work, it then waits up to the window for room for
     * {@code max}. The caller gives back what its claim did not fill with {@link #giveBack(int)}.
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
            int want = Math.min(max, workers);
            for (long window = windowNanos; window > 0 && !stopping && room() < want && (busy > 0 || unsettled > 0); ) {
                window = changed.awaitNanos(window);
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

    /** Whether a claim is waiting for room (for tests). */
    boolean claimWaiting() {
        lock.lock();
        try {
            return lock.hasWaiters(changed);
        } finally {
            lock.unlock();
        }
    }

    /** Wakes a claim waiting for room (at shutdown); one waiting within its window takes what is free. */
    void wake() {
        lock.lock();
        try {
            stopping = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
