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
 * <p>A claim that finds fewer workers free than it could fill, while other rows are still in work, waits for
 * more of them to free, at most as long as its subscription's recent claims took (the average of the recent
 * ones, {@link #claimTook}): without the wait, workers that free one after another each start a claim of their
 * own (a statement, and in the row lock form a commit) for one or two rows, and the claims stay that small for
 * as long as the load lasts. With it, one claim serves them all, and a row that came for a worker waits at most
 * what a claim of its own would have cost it. The wait never delays a claim on an idle subscription, where
 * nothing is in work, nor one before any claim was measured.
 *
 * <p>Where its subscription allows it ({@link FormRuntime#claimAhead}), a claim also takes up to {@code ahead} rows
 * more than there are workers free, while its handlers take less time than its claims (the average of the
 * recent ones, {@link #handlerTook} and {@link #claimTook}): such a row waits for the next worker to free,
 * which is sooner than the next claim would have brought it, and the workers no longer wait on each claim's
 * round trip. Where handlers take longer than claims, or before any has returned, a claim takes no more rows
 * than workers are free, so no row waits on a slow handler.
 */
final class Slots {
    private final int workers;
    /** The rows a claim may take beyond the free workers, while handlers are faster than claims. */
    private final int ahead;
    private final int unsettledLimit;
    /** Whether a claim waits, while rows are in work, for more workers to free (see the class's comment). */
    private final boolean waits;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int busy;
    private int unsettled;
    /** Set at shutdown: a claim waiting for more room takes what it has. */
    private boolean stopping;
    /** The recent handlers' and claims' average durations, in nanoseconds; -1 until one is measured. */
    private long handlerNanos = -1;
    private long claimNanos = -1;

    /** Room for {@code workers}; a claim takes what is free at once. */
    Slots(int workers) {
        this(workers, 0, false);
    }

    /**
     * Room for {@code workers}, and for {@code ahead} rows more while handlers take less time than claims;
     * where it {@code waits}, a claim waits up to the recent claims' time for more room while rows are in work.
     */
    Slots(int workers, int ahead, boolean waits) {
        this.workers = workers;
        this.ahead = ahead;
        this.unsettledLimit = unsettledLimit(workers + ahead);
        this.waits = waits;
    }

    /** The rows a claim may take beyond its free workers; 0 where every row claimed has a worker free. */
    int ahead() {
        return ahead;
    }

    /**
     * The most rows claimed and not yet settled: twice the workers, and at least four more than the workers,
     * so a single worker's next claims run while the settlements of the last ones are still committing.
     */
    static int unsettledLimit(int workers) {
        return workers + Math.max(workers, 4);
    }

    /**
     * Takes every free worker, up to {@code max} (and the rows it may take ahead, see {@link #ahead()}),
     * waiting up to {@code nanos} for room; 0 where none came. Where there is room for fewer than
     * {@code max} and rows are in work, it then waits up to the window for room for {@code max}. The caller
     * gives back what its claim did not fill with {@link #giveBack(int)}.
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
            long windowNanos = waits ? Math.max(0, claimNanos) : 0;
            for (long window = windowNanos; window > 0 && !stopping && room() < want && (busy > 0 || unsettled > 0); ) {
                window = changed.awaitNanos(window);
            }
            int n = Math.min(max + aheadNow(), room());
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
        return Math.max(0, Math.min(workers + aheadNow() - busy, unsettledLimit - unsettled));
    }

    /** The rows a claim takes ahead now: {@link #ahead} while handlers take less time than claims, else 0. */
    private int aheadNow() {
        return handlerNanos >= 0 && claimNanos >= 0 && handlerNanos < claimNanos ? ahead : 0;
    }

    /** A handler returned after {@code nanos}; counted only where claims may take rows ahead. */
    void handlerTook(long nanos) {
        if (ahead == 0) {
            return;
        }
        lock.lock();
        try {
            handlerNanos = average(handlerNanos, nanos);
        } finally {
            lock.unlock();
        }
    }

    /** A claim that took rows lasted {@code nanos}; counted only where claims wait or take rows ahead. */
    void claimTook(long nanos) {
        if (ahead == 0 && !waits) {
            return;
        }
        lock.lock();
        try {
            claimNanos = average(claimNanos, nanos);
        } finally {
            lock.unlock();
        }
    }

    /** A moving average that gives the latest sample an eighth of its weight; the first sample as it is. */
    private static long average(long before, long sample) {
        return before < 0 ? sample : before + (sample - before) / 8;
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
