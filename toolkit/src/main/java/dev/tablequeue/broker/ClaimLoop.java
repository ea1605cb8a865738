package dev.tablequeue.broker;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jooq.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claims of one subscription: the claim thread's loop (claims for the free workers, waits the poll
 * interval or a wake-up where it found nothing, backs off where it failed), the claims an in-process broker
 * makes on the caller's thread instead, the claims settlements make as they walk on to the next row, and the
 * pause that stops all three.
 */
final class ClaimLoop<T> {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimLoop.class);
    /** In-process mode: the most claims one {@link #runInline()} makes. */
    private static final int INLINE_CLAIMS = 1000;

    private final Subscription<T> subscription;
    private final QueueBroker broker;
    private final Mount<T> mount;
    private final InboxQueue<? extends Record> queue;
    private final Wakeup wakeup;
    private final long pollNanos;
    private Slots slots;
    private Claimer claimer;
    private Completer completer;
    private Deliveries<T> deliveries;
    private HandlerThreads handlers;
    /** Set by {@link #pause()}: nothing is claimed until {@link #resume()}. */
    private volatile boolean paused;
    /** Read by each claim a settlement makes, written by pause and stop to wait for those under way. */
    private final ReentrantReadWriteLock settlementClaims = new ReentrantReadWriteLock();
    /**
     * Held by the claim thread while a claim runs, until its rows are in work, so that {@link #pause()} can
     * wait for a claim in progress.
     */
    private final ReentrantLock claimTurn = new ReentrantLock();
    /** Set by a {@link #runInline()} nested in a handler of this thread's own: claim once more. */
    private volatile boolean inlineAgain;

    ClaimLoop(Subscription<T> subscription, long pollNanos) {
        this.subscription = subscription;
        this.broker = subscription.broker;
        this.mount = subscription.mount;
        this.queue = subscription.queue;
        this.wakeup = subscription.wakeup;
        this.pollNanos = pollNanos;
    }

    /** What the claims run with, made when the subscription starts (a pause may come before). */
    void begin(Slots slots, Claimer claimer, Completer completer, Deliveries<T> deliveries,
            HandlerThreads handlers) {
        this.slots = slots;
        this.claimer = claimer;
        this.completer = completer;
        this.deliveries = deliveries;
        this.handlers = handlers;
    }

    /**
     * In-process mode: claims and handles on this thread what is due until a claim finds nothing (at most
     * {@link #INLINE_CLAIMS} claims), waiting for the outcomes to be written; from a handler of its own, it
     * makes the running call claim once more instead.
     */
    void runInline() {
        if (paused) {
            return;
        }
        if (claimTurn.isHeldByCurrentThread()) {
            inlineAgain = true;
            return;
        }
        long deadline = System.nanoTime() + broker.drainTimeout.toNanos();
        try {
            for (int claim = 0; claim < INLINE_CLAIMS; claim++) {
                int dispatched;
                // one caller at a time: another thread's publish waits here for this one's claim and handlers
                claimTurn.lock();
                try {
                    inlineAgain = false;
                    completer.beforeClaim();
                    int free = slots.take(mount.batch > 0 ? mount.batch : mount.workers, 0);
                    deliveries.claimBegins();
                    try {
                        if (free > 0) {
                            claimUnlessPaused(free);
                        }
                    } finally {
                        dispatched = deliveries.dispatched();
                        slots.giveBack(free - dispatched);
                    }
                    completer.beforeClaim();
                } finally {
                    claimTurn.unlock();
                }
                slots.awaitAllSettled(deadline);
                if (dispatched == 0 && !inlineAgain) {
                    return;
                }
            }
            LOG.warn("{} ran {} claims in process without running out of due rows; what is still due runs at the"
                    + " next publish or runDue()", queue, INLINE_CLAIMS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new dev.tablequeue.TableQueueException("the in-process claim on " + queue + " failed: " + e, e);
        }
    }

    /** The claim thread's work: claims rows for the free workers until the subscription stops. */
    void run() {
        handlers.claimsOn(Thread.currentThread());
        try {
            claimUntilStopped();
        } finally {
            completer.claimsEnded();
        }
    }

    private void claimUntilStopped() {
        long backoff = 0;
        while (subscription.isRunning()) {
            long idle = wakeup.sequence();
            completer.beforeClaim();
            if (paused) {
                // nothing is claimed; a resume, a stop or an outcome for this thread to write ends the wait
                try {
                    wakeup.await(idle, pollNanos);
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            int free;
            try {
                free = slots.take(mount.batch > 0 ? mount.batch : mount.workers, pollNanos);
            } catch (InterruptedException e) {
                return;
            }
            if (free == 0) {
                continue;
            }
            completer.beforeClaim();
            long seen = wakeup.sequence();
            deliveries.claimBegins();
            Throwable failed = null;
            boolean interrupted = false;
            try {
                long began = System.nanoTime();
                if (claimUnlessPaused(free)) {
                    long nanos = System.nanoTime() - began;
                    Duration took = Duration.ofNanos(nanos);
                    int rows = deliveries.dispatched();
                    if (rows > 0) {
                        slots.claimTook(nanos);
                    }
                    deliveries.tell(() -> broker.listener.claimed(queue, rows, took));
                }
                backoff = 0;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (Throwable e) {
                failed = e;
            } finally {
                slots.giveBack(free - deliveries.dispatched());
            }
            // with one worker, its handler runs here, on this thread, once the claim has ended
            handlers.runDeferred();
            if (interrupted) {
                return;
            }
            if (failed != null) {
                // a claim that fails (the table dropped, the server restarting) never ends the loop
                if (!subscription.isRunning()) {
                    return;
                }
                backoff = Math.min(Math.max(100, backoff * 2), 30_000);
                LOG.warn("claim on {} failed, claiming again in {} ms: {}", queue, backoff, failed.toString());
                broker.listener.claimFailed(queue, failed);
                try {
                    wakeup.await(wakeup.sequence(), TimeUnit.MILLISECONDS.toNanos(backoff));
                } catch (InterruptedException stop) {
                    return;
                }
                continue;
            }
            if (deliveries.dispatched() == 0 && subscription.isRunning()) {
                try {
                    wakeup.await(seen, pollNanos);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Claims rows for {@code free} workers, unless the subscription was paused meanwhile; false where it was. */
    private boolean claimUnlessPaused(int free) throws Exception {
        claimTurn.lock();
        try {
            if (paused) {
                return false;
            }
            try {
                claimer.claim(free, deliveries);
            } finally {
                deliveries.claimEnds();
            }
            return true;
        } finally {
            claimTurn.unlock();
        }
    }

    /**
     * Stops claiming: returns once a claim in progress has put its rows into work, and from then on nothing
     * is claimed until {@link #resume()}. Deliveries in work finish and settle as before. Before the
     * subscription starts, it makes it start paused.
     */
    void pause() {
        paused = true;
        claimTurn.lock();
        claimTurn.unlock();
        settlementClaims.writeLock().lock();
        settlementClaims.writeLock().unlock();
    }

    /**
     * The claims settlements make ({@link SettlementWalk.Gate}): each runs while the subscription claims,
     * under {@link #settlementClaims}' read lock, so that pause and stop return only once none is under way.
     */
    SettlementWalk.Gate settlementClaims() {
        return new SettlementClaims();
    }

    private final class SettlementClaims implements SettlementWalk.Gate {
        @Override
        public boolean enter() {
            settlementClaims.readLock().lock();
            if (subscription.isRunning() && !paused) {
                return true;
            }
            settlementClaims.readLock().unlock();
            return false;
        }

        @Override
        public void leave() {
            settlementClaims.readLock().unlock();
        }

        @Override
        public void start(AdvisoryDelivery next, Duration took) {
            deliveries.tell(() -> broker.listener.claimed(queue, 1, took));
            deliveries.start(next);
        }

        @Override
        public void foundNothing(Duration took) {
            deliveries.tell(() -> broker.listener.claimed(queue, 0, took));
        }
    }

    /** Waits up to {@code grace} for the claims settlements are making to end. */
    void awaitSettlementClaims(Duration grace) throws InterruptedException {
        if (settlementClaims.writeLock().tryLock(grace.toNanos(), TimeUnit.NANOSECONDS)) {
            settlementClaims.writeLock().unlock();
        }
    }

    /** Claims again, at once. */
    void resume() {
        paused = false;
        wakeup.wake();
    }

    boolean paused() {
        return paused;
    }
}
