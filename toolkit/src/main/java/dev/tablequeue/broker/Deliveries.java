package dev.tablequeue.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subscription's side of its claims: the rows a claimer takes go into work here, each handler on a
 * virtual thread of its own (with one worker, on the claim thread once its claim has ended), and each answer
 * goes to the completer. It counts the rows of the claim in progress, takes the budget permits a claim waits
 * for, and, once the drain has released the deliveries in work, gives back a row still taken rather than
 * start it.
 */
final class Deliveries<T> implements Dispatch {
    private static final Logger LOG = LoggerFactory.getLogger(Deliveries.class);
    /** The slices of a wait for a budget permit, so that a stop or an outcome to write is seen meanwhile. */
    private static final long PERMIT_SLICE_MILLIS = 20;

    private final Subscription<T> subscription;
    private final QueueBroker broker;
    private final InboxQueue<?> queue;
    private final Set<InWork> inWork;
    private final Handling<T> handling;
    private final Slots slots;
    private final Completer completer;
    private final long pollNanos;
    /** Where the handlers run. */
    private final HandlerThreads handlers;
    /**
     * A batch subscription's rows of the claim in progress, started together when it ends; else null. The
     * claim thread and a claim's further connections (advisory) add to it, under its own monitor.
     */
    private final List<InWork> batch;
    /** Whether a claim is in progress; under {@link #batch}'s monitor. */
    private boolean claiming;
    /** The rows the claim in progress has put into work; the claim thread's alone. */
    private int dispatched;
    /**
     * Where claims take rows ahead of the free workers ({@link Slots#ahead()}), a permit per worker, taken
     * in claim order before each handler runs; else null.
     */
    private final Semaphore workerTurns;
    /** Held while a delivery goes into work, so that none does once the drain has released the others. */
    private final ReentrantLock admission = new ReentrantLock();
    /** False once the drain has released the deliveries in work; read and moved under {@link #admission}. */
    private boolean admitting = true;

    Deliveries(Subscription<T> subscription, Handling<T> handling, Slots slots, Completer completer,
            HandlerThreads handlers, long pollNanos) {
        this.subscription = subscription;
        this.broker = subscription.broker;
        this.queue = subscription.queue;
        this.inWork = subscription.inWork;
        this.handling = handling;
        this.slots = slots;
        this.completer = completer;
        this.pollNanos = pollNanos;
        this.workerTurns = slots.ahead() > 0 ? new Semaphore(subscription.mount.workers, true) : null;
        this.batch = subscription.mount.batch > 0 ? new ArrayList<>() : null;
        this.handlers = handlers;
    }


    /** Starts counting a new claim's rows. */
    void claimBegins() {
        dispatched = 0;
        if (batch != null) {
            synchronized (batch) {
                claiming = true;
            }
        }
    }

    /** The rows the claim in progress has put into work. */
    int dispatched() {
        return dispatched;
    }

    /** From now on no row goes into work: one still taken is given back. */
    void closeAdmission() {
        admission.lock();
        try {
            admitting = false;
        } finally {
            admission.unlock();
        }
    }

    /**
     * Takes a budget permit, waiting up to the poll interval, and no longer once the subscription stops; the
     * completer waits each slice of it (where the claim thread writes the outcomes, it writes those that
     * arrive meanwhile).
     */
    @Override
    public boolean permit() throws InterruptedException {
        long deadline = System.nanoTime() + pollNanos;
        while (true) {
            if (broker.budget.acquire(0)) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !subscription.isRunning()) {
                return false;
            }
            if (completer.awaitPermit(broker.budget, Math.min(left, TimeUnit.MILLISECONDS.toNanos(PERMIT_SLICE_MILLIS)))) {
                return true;
            }
        }
    }

    @Override
    public void dispatch(InWork d) {
        dispatched++;
        if (batch == null || !joinedBatch(d)) {
            start(d);
        }
    }

    /** Adds {@code d} to the batch of the claim in progress; false where no claim is. */
    private boolean joinedBatch(InWork d) {
        synchronized (batch) {
            if (claiming) {
                batch.add(d);
            }
            return claiming;
        }
    }

    /** The claim thread's claim has ended: a batch subscription's rows of it go to one handler. */
    void claimEnds() {
        if (batch == null) {
            return;
        }
        List<InWork> rows;
        synchronized (batch) {
            claiming = false;
            // in claim order, not in the order the side-by-side takes of an advisory claim ended
            rows = batch.stream().sorted(InWork.IN_CLAIM_ORDER).toList();
            batch.clear();
        }
        if (!rows.isEmpty()) {
            startBatch(rows);
        }
    }

    /**
     * Runs the batch handler on {@code rows} on a thread of its own, then hands each row's answer to the
     * completer; a row taken once the subscription has drained is given back instead.
     */
    private void startBatch(List<InWork> rows) {
        List<InWork> admitted = new ArrayList<>(rows.size());
        for (InWork d : rows) {
            if (admit(d)) {
                admitted.add(d);
            } else {
                turnAway(d);
            }
        }
        if (admitted.isEmpty()) {
            return;
        }
        handlers.execute(() -> {
            long began = System.nanoTime();
            List<Settlement.Pending> answers;
            try {
                answers = handling.batchOutcomes(admitted);
            } catch (Error e) {
                stopOnError(admitted.get(0), e);
                admitted.subList(1, admitted.size()).forEach(d -> completer.complete(Settlement.Pending.nothing(d)));
                throw e;
            }
            Duration took = Duration.ofNanos(System.nanoTime() - began);
            for (Settlement.Pending p : answers) {
                tell(() -> broker.listener.handled(p.d(), p.outcome(), took));
            }
            completer.completeAll(answers);
        });
    }

    @Override
    public void counted(int n) {
        dispatched += n;
    }

    @Override
    public boolean tryTakeOne() {
        return slots.tryTakeOne();
    }

    /**
     * Runs the handler on a virtual thread of its own (or one of the subscription's platform threads), once a
     * worker is free where rows are claimed ahead of the workers; its worker is free when it returns, and the
     * completer takes its answer. A row taken once the subscription has drained is given back instead.
     */
    @Override
    public void start(InWork d) {
        if (batch != null) {
            // a row a claim's further connection took: in the claim's batch, or, once the claim has ended, a
            // batch of its own
            if (!joinedBatch(d)) {
                startBatch(List.of(d));
            }
            return;
        }
        if (!admit(d)) {
            turnAway(d);
            return;
        }
        handlers.execute(workerTurns == null ? () -> handle(d) : () -> handleInTurn(d));
    }

    /**
     * Runs {@code d}'s handler once a worker is free: a row claimed ahead waits here for one, in claim order.
     * One whose subscription has drained meanwhile is given back without running.
     */
    private void handleInTurn(InWork d) {
        workerTurns.acquireUninterruptibly();
        try {
            if (admitting()) {
                handle(d);
            } else {
                turnAway(d);
            }
        } finally {
            workerTurns.release();
        }
    }

    /** Runs {@code d}'s handler on this thread and hands its answer to the completer. */
    private void handle(InWork d) {
        long began = System.nanoTime();
        Settlement.Pending pending;
        try {
            pending = new Settlement.Pending(d, handling.outcome(d));
        } catch (Error e) {
            if (d.transaction() != null) {
                d.transaction().decide(false);
            }
            stopOnError(d, e);
            throw e;
        }
        long nanos = System.nanoTime() - began;
        slots.handlerTook(nanos);
        Duration took = Duration.ofNanos(nanos);
        if (!pending.writesNothing()) {
            tell(() -> broker.listener.handled(d, pending.outcome(), took));
        }
        completer.complete(pending);
    }

    /** Whether rows still go into work (the drain has not released those in work). */
    private boolean admitting() {
        admission.lock();
        try {
            return admitting;
        } finally {
            admission.unlock();
        }
    }

    /** Counts {@code d} in work, unless the subscription has drained; false then. */
    private boolean admit(InWork d) {
        admission.lock();
        try {
            if (admitting) {
                inWork.add(d);
            }
            return admitting;
        } finally {
            admission.unlock();
        }
    }

    /**
     * Gives back a row that was taken but does not go into work (the subscription has drained, or a claim
     * that went on without its connection found no worker free): its key or its claim's transaction is
     * released and its connection returned, and the row is back in the queue (a lease row once its lease
     * runs out).
     */
    @Override
    public void turnAway(InWork d) {
        if (d.transaction() != null) {
            d.transaction().abandon();
        }
        completer.release(d);
        LOG.info("{} was taken but does not go into work; its row goes back to the queue", d);
    }

    /**
     * A handler failed with an {@link Error} (its row's decoding or its failure policy included). That is no
     * business failure a retry could mend but a fault of the process, as likely to strike the next row: the
     * row is written nothing, so it returns by its form's rule (a row lock's rollback or commit leaves it as
     * it was, a lease runs out, a key is released); the subscription stops claiming (the deliveries in work
     * still settle); and the Error goes on up the handler's thread to its uncaught exception handler.
     */
    private void stopOnError(InWork d, Error e) {
        LOG.error("the handler of {} failed on {} with {}: its row is written nothing and returns by its form's"
                + " rule, and the subscription claims no more rows", queue, d, e.toString(), e);
        // a claim under way would take the row straight back once its key or its lock is released
        subscription.stopAndAwaitClaims();
        completer.complete(Settlement.Pending.nothing(d));
        try {
            broker.listener.subscriptionStopped(queue, e);
        } catch (RuntimeException listenerFailure) {
            e.addSuppressed(listenerFailure);
        }
    }

    /** Runs a listener callback; one that throws is logged, so it never stops a claim or a settlement. */
    void tell(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.warn("a broker listener of {} threw: {}", queue, e.toString());
        }
    }
}
