package dev.tablequeue.broker;

import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Advisory: writes each outcome on the connection that holds its row's key, then releases the key and
 * returns the connection. Where the dialect offers it, a one-statement outcome and the release are one
 * statement, which keeps the key until the outcome commits
 * ({@link dev.tablequeue.dialect.QueueDialect#advisorySettleAndUnlock}). These outcomes are not batched:
 * each is written on its own delivery's connection, by one of the subscription's settle threads (or,
 * {@link InlineCompleter}, by the claim thread).
 *
 * <p>Where the dialect walks the rows and writes an outcome, releases its key and walks to the next row in one
 * statement ({@link dev.tablequeue.dialect.QueueDialect#advisorySettleAndWalk}), and the subscription opened
 * its {@link SettlementWalk.Gate} gate, a settlement is also its worker's next claim: the worker stays taken while the
 * statement runs, and a row it took goes into work on the same connection, which keeps its key, as that
 * worker's. So a delivery costs one statement rather than a claim and a settlement. Where it took none, the
 * worker frees and the connection goes back, as after a settlement alone.
 */
final class KeyCompleter implements Completer, InlineCompleter.Queued {
    private final SubscriptionContext ctx;
    private final Settlement settlement;
    private final SettlementReports reports;
    private final AdvisoryKeys keys;
    private final Slots slots;
    /** The settle threads, each writing one outcome at a time; null where the claim thread writes them. */
    private final ExecutorService writers;
    /** Where the claim thread writes them: the queue it writes. */
    private final Settler settler;
    /** The deliveries whose settlement was under way when the drain released the others. */
    private final List<AdvisoryDelivery> settling = new CopyOnWriteArrayList<>();
    /** The walk on to the next row that settlements make where the subscription lets them. */
    private final SettlementWalk walk;
    /** Where settlements walk on to the next row: the subscription's gate; null where they do not. */
    private volatile SettlementWalk.Gate walkOn;
    KeyCompleter(SubscriptionContext ctx, Settlement settlement, AdvisoryKeys keys, Slots slots, String name,
            int writers) {
        this.ctx = ctx;
        this.settlement = settlement;
        this.reports = settlement.reports;
        this.keys = keys;
        this.slots = slots;
        this.writers = writers > 0 ? Executors.newFixedThreadPool(writers, Threads.platform(name)) : null;
        this.settler = new Settler(null, slots, name, 0);
        this.walk = new SettlementWalk(ctx, settlement.reports);
    }

    /**
     * Lets each settlement walk on to its worker's next row, where the statements offer it and the settle
     * threads write the outcomes (not where the claim thread does).
     */
    void walkOn(SettlementWalk.Gate gate) {
        if (writers != null && !ctx.statements.walking().isEmpty()) {
            this.walkOn = gate;
        }
    }

    @Override
    public Settler settler() {
        return settler;
    }

    @Override
    public void queue(Settlement.Pending p) {
        settler.submit(new Settler.Task(() -> settleOnItsConnection(p, null), 0));
    }

    /**
     * Hands the outcome to a settle thread. Once the subscription has drained (a handler that outlived the
     * drain, whose key was released) the outcome is written here, as the {@link Settler} does.
     */
    @Override
    public void complete(Settlement.Pending p) {
        // a settlement that may claim keeps its worker until it knows whether it took a row
        SettlementWalk.Gate gate = p.d().transaction() == null && !p.writesNothing() && !walk.skips() ? walkOn : null;
        if (gate == null) {
            slots.handled();
        }
        if (p.d().transaction() != null && p.d().transaction().keeps()) {
            // written here, in the delivery's transaction, which holds the database's write lock on SQLite:
            // not in turn with the claim, which may wait for that lock
            settleOnItsConnection(p, null);
            return;
        }
        if (gate != null) {
            // the settlement is its worker's next claim: written on the worker's own thread, each worker's at
            // once, rather than queued for the two settle threads
            settleOnItsConnection(p, gate);
            return;
        }
        try {
            writers.execute(() -> settleOnItsConnection(p, null));
        } catch (RejectedExecutionException drained) {
            settleOnItsConnection(p, null);
        }
    }

    /**
     * Writes the outcome and releases the key on the delivery's connection, then returns the connection; where
     * {@code gate} is given and the settlement took the next row, that row goes into work on the connection
     * instead, on the worker the settled one held.
     */
    private void settleOnItsConnection(Settlement.Pending p, SettlementWalk.Gate gate) {
        AdvisoryDelivery d = (AdvisoryDelivery) p.d();
        boolean turn = d.transaction() == null || !d.transaction().keeps();
        if (turn) {
            ctx.turn.lock();
        }
        Settled settled = Settled.RELEASED;
        try {
            settled = settle(p, gate);
        } finally {
            if (turn) {
                ctx.turn.unlock();
            }
            if (settled.next() != null) {
                // the connection and the worker pass to the row taken, which counts as unsettled in its place
                ctx.inWork.remove(d);
                d.connectionBack.countDown();
                gate.start(settled.next(), settled.claimTook());
            } else {
                if (settled.tookConnection()) {
                    // a delivery released at shutdown gave its connection back then
                    keys.giveBack(d);
                }
                ctx.inWork.remove(d);
                if (gate != null) {
                    slots.handled();
                }
                slots.settled(1);
                if (settled.claimTook() != null) {
                    gate.foundNothing(settled.claimTook());
                }
            }
        }
    }

    /**
     * What a settlement came to: whether it took the delivery (and so returns its connection), and, where it
     * walked on, how long that took and the row it took, if any.
     */
    private record Settled(boolean tookConnection, AdvisoryDelivery next, java.time.Duration claimTook) {
        static final Settled RELEASED = new Settled(false, null, null);
        static final Settled TOOK = new Settled(true, null, null);
    }

    /**
     * Writes one outcome on the connection that holds its key (nothing for {@link Settlement.Pending#nothing}),
     * then releases the key. A failure is logged and reported to the listener.
     *
     * @return whether this settlement took the delivery, and so returns its connection (false where the
     *     delivery was released at shutdown, which returned the connection then); where it walked on
     *     ({@code gate} given, and the subscription still claiming), the row it took
     */
    private Settled settle(Settlement.Pending p, SettlementWalk.Gate gate) {
        AdvisoryDelivery d = (AdvisoryDelivery) p.d();
        d.lock.lock();
        try {
            if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.SETTLED)) {
                reports.failed(p, reports.closed(d, p.outcome()));
                return Settled.RELEASED;
            }
            Settlement.Write written = null;
            // whether the outcome's statement released the key as well
            boolean unlocked = false;
            Settled settled = Settled.TOOK;
            try {
                if (!p.writesNothing()) {
                    Settlement.Write w = settlement.plan(p);
                    Statement unlocking = unlocking(d, w);
                    Statement walking = gate != null && unlocking != null
                            ? ctx.statements.walking().get(w.plan().writes()) : null;
                    if (walking != null && gate.enter()) {
                        try {
                            // a failure leaves unknown whether a key the walk locked is held: the session ends
                            unlocked = true;
                            d.evicted = true;
                            SettlementWalk.Walked walked = walk.writeAndWalk(d, w, walking);
                            settled = new Settled(true, walked.next(), walked.took());
                        } finally {
                            gate.leave();
                        }
                    } else if (unlocking != null) {
                        d.evicted = !writeAndUnlock(d, w, unlocking);
                        unlocked = true;
                    } else {
                        writeOn(d, w);
                    }
                    written = w;
                }
            } catch (Exception e) {
                reports.failed(p, e);
            } finally {
                // a statement that failed may or may not have released the key: this release tells which
                if (!unlocked && !keys.unlock(d.connection, d.key)) {
                    d.evicted = true;
                }
            }
            // Reported (and the claim woken) once the key is free: a claim woken while the key is still held
            // would skip the row it was woken for and sleep a whole poll interval.
            if (written != null) {
                reports.succeeded(written);
            }
            return settled;
        } finally {
            d.lock.unlock();
        }
    }

    /**
     * The statement that writes {@code w}'s outcome and releases its key in one round trip: where the outcome
     * is one statement in auto-commit and the dialect offers it that way; null otherwise (a transactional
     * delivery, whose commit is the handler's too, writes and releases one after the other).
     */
    private Statement unlocking(AdvisoryDelivery d, Settlement.Write w) {
        var plan = w.plan();
        if (d.transaction() != null || plan.needsTransaction() || plan.run().size() != 1) {
            return null;
        }
        return ctx.statements.unlocking().get(plan.writes());
    }

    /** Runs {@code unlocking} for {@code w}; whether the release was confirmed. */
    private boolean writeAndUnlock(AdvisoryDelivery d, Settlement.Write w, Statement unlocking) throws SQLException {
        try {
            return Jdbc.query(d.connection, unlocking, w.plan().binds().key(d.key), ctx.dialect,
                    Jdbc::firstBoolean);
        } catch (SQLException e) {
            throw reports.statementFailed(List.of(w), unlocking.purpose(), unlocking.sql(), e);
        }
    }

    /**
     * One statement in auto-commit, several (or the service's own event) in a transaction opened as the
     * binding declares. Where the rollback of a failed transaction fails as well, the failure that caused it
     * is the one reported (the rollback's is kept as suppressed) and the connection ends its session rather
     * than go back to the pool.
     */
    private void writeOn(AdvisoryDelivery d, Settlement.Write w) throws SQLException {
        Connection c = d.connection;
        AdvisoryTransaction tx = d.transaction();
        if (tx != null && tx.keeps()) {
            // the handler's writes commit with the acknowledgement, in the transaction they were written in
            try {
                settlement.write(c, w, false);
                tx.commit();
            } catch (SQLException | RuntimeException e) {
                tx.rollbackQuietly();
                throw e;
            }
            return;
        }
        if (!w.plan().needsTransaction()) {
            settlement.write(c, w, false);
            return;
        }
        var opening = ctx.statements.opening();
        Transactions.begin(c, opening);
        try {
            settlement.write(c, w, false);
            Transactions.commit(c, opening);
        } catch (SQLException | RuntimeException e) {
            try {
                Transactions.rollback(c, opening);
            } catch (SQLException | RuntimeException rollback) {
                e.addSuppressed(rollback);
                d.evicted = true;
            }
            throw e;
        }
    }

    /** What is queued is still written; an outcome that arrives later is written by its handler's thread. */
    @Override
    public void stop(long deadline) {
        if (writers != null) {
            writers.shutdown();
        }
    }

    /**
     * Releases the key of a delivery still in work and gives its connection back (ending its session where the
     * release is not confirmed); one whose settlement is under way gives it back itself.
     */
    @Override
    public Settlement.Release release(InWork released) {
        AdvisoryDelivery d = (AdvisoryDelivery) released;
        Settlement.Release release;
        d.lock.lock();
        try {
            if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.RELEASED)) {
                release = Settlement.Release.KEPT;
            } else if (d.transaction() != null && !d.transaction().rollBackAtRelease()) {
                d.evicted = true;
                release = Settlement.Release.CONNECTION_CLOSED;
            } else if (keys.unlock(d.connection, d.key)) {
                release = Settlement.Release.LOCK_RELEASED;
            } else {
                d.evicted = true;
                release = Settlement.Release.CONNECTION_CLOSED;
            }
        } finally {
            d.lock.unlock();
        }
        if (release == Settlement.Release.KEPT) {
            settling.add(d);
        } else {
            keys.giveBack(d);
        }
        return release;
    }

    @Override
    public void awaitUnderWay(long until) {
        try {
            if (writers != null) {
                writers.awaitTermination(until - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
            for (AdvisoryDelivery d : settling) {
                d.connectionBack.await(until - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
