package dev.tablequeue.broker;

import dev.tablequeue.BatchRolledBackException;
import dev.tablequeue.OutcomeUnknownException;
import dev.tablequeue.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Row lock: writes the outcomes of one claim's rows together, in the claim's transaction, once the last of
 * its handlers has returned, and commits it. Each claim settles on a settle thread free at once (a thread
 * is added where none is), never queued behind another claim's settlement: a claim's statement may wait for
 * a lock another claim's open transaction holds (on MariaDB, a claim that passed over a row keeps the lock it
 * took on the row's entry in the claim index), and that transaction ends only once its own settlement runs.
 * A row whose handler returned before its claim-mates' no longer counts against the subscription's room: it
 * waits on the claim's connection, which the broker's budget counts.
 */
final class ClaimCompleter implements Completer {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimCompleter.class);

    private final SubscriptionContext ctx;
    private final Settlement settlement;
    private final SettlementReports reports;
    private final Slots slots;
    /** Platform threads (a settlement blocks in the driver's socket reads), as many as settle at once. */
    private final ExecutorService threads;
    /** Guards {@link #open} and {@link #underWay}; {@link #idle} is signalled when the last settlement ends. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private boolean open = true;
    private int underWay;

    ClaimCompleter(SubscriptionContext ctx, Settlement settlement, Slots slots, String name) {
        this.ctx = ctx;
        this.settlement = settlement;
        this.reports = settlement.reports;
        this.slots = slots;
        this.threads = Executors.newCachedThreadPool(Threads.platform(name));
    }

    @Override
    public void complete(Settlement.Pending p) {
        slots.handled();
        ClaimGroup group = ((RowLockDelivery) p.d()).group;
        List<Settlement.Pending> all = group.add(p);
        if (all != null) {
            // the group's other rows left the unsettled count when their handlers returned
            submit(() -> settle(group, all));
        } else {
            // it waits for its claim's last handler, on the claim's connection: it no longer holds back the
            // claims of the free workers (a slow handler would otherwise stop them all)
            slots.settled(1);
        }
    }

    /**
     * Runs a claim's settlement on a thread of its own; once stopped, on the caller's thread. Either way the
     * claim counts as settled ({@link Slots#settled}) when it has run.
     */
    private void submit(Runnable settle) {
        Runnable counted = () -> {
            try {
                settle.run();
            } catch (RuntimeException e) {
                LOG.error("a settlement of {} failed unexpectedly", ctx.queue, e);
            } finally {
                slots.settled(1);
            }
        };
        lock.lock();
        try {
            if (open) {
                underWay++;
                threads.execute(() -> {
                    try {
                        counted.run();
                    } finally {
                        ended();
                    }
                });
                return;
            }
        } finally {
            lock.unlock();
        }
        counted.run();
    }

    private void ended() {
        lock.lock();
        try {
            if (--underWay == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the outcomes of a claim's deliveries in the claim's transaction and commits it; where a
     * statement fails the transaction rolls back, every row of the claim returns to the queue as it was, and
     * each outcome fails: the one whose statement failed with its cause, the others with
     * {@link BatchRolledBackException}. Where the connection fails during the commit, each outcome is
     * reported as unknown ({@link OutcomeUnknownException}).
     */
    void settle(ClaimGroup group, List<Settlement.Pending> outcomes) {
        group.lock.lock();
        try {
            if (group.state() != ClaimGroup.State.OPEN) {
                ended(outcomes, false);
                for (Settlement.Pending p : outcomes) {
                    reports.failed(p, reports.closed(p.d(), p.outcome()));
                }
                return;
            }
            List<Settlement.Write> writes = new ArrayList<>(outcomes.size());
            Instant now = ctx.now();
            for (Settlement.Pending p : outcomes) {
                p.d().state.set(InWork.State.SETTLED);
                if (!p.writesNothing()) {
                    // a row written nothing stays as it was, and returns when the transaction ends
                    writes.add(settlement.plan(p, now));
                }
            }
            Connection c = group.connection;
            Map<Settlement.Write, Exception> lost;
            boolean committing = false;
            try {
                lost = settlement.writeAll(c, writes, false);
                // a middleware's statements for every row of the claim, those written nothing too: their rows
                // return as they were, and what the middleware wrote at the claim must not commit as if settled
                settlement.joins(c, outcomes);
                committing = true;
                Transactions.commit(c, ctx.statements.opening());
            } catch (Settlement.BatchFailure e) {
                Transactions.rollbackQuietly(c, ctx.statements.opening());
                group.end(ClaimGroup.State.RELEASED);
                ended(outcomes, false);
                ctx.returned(Duration.ZERO);
                reports.rolledBack(writes, e.culprits, e.getCause());
                return;
            } catch (SQLException | RuntimeException e) {
                Transactions.rollbackQuietly(c, ctx.statements.opening());
                // a commit cut off with its connection may have taken effect: no claim to have rolled it back
                boolean unknown = committing && Connections.lost(e, c);
                group.end(ClaimGroup.State.RELEASED);
                ended(outcomes, false);
                ctx.returned(Duration.ZERO);
                if (unknown) {
                    writes.forEach(w -> reports.unknown(w.pending(),
                            reports.statementFailed(List.of(w), "commit", null, e)));
                } else {
                    reports.rolledBack(writes, List.of(),
                            e instanceof SQLException ? reports.statementFailed(writes, "commit", null, e) : e);
                }
                return;
            }
            group.end(ClaimGroup.State.SETTLED);
            ended(outcomes, true);
            reports.report(writes, lost);
        } finally {
            group.lock.unlock();
            reports.forget(outcomes);
            settlement.ended(outcomes);
        }
    }

    /**
     * The claim's transaction ended: a delivery's transaction (its savepoint in the claim's) committed where the
     * claim's did and the acknowledgement kept its writes; one rolled back to its savepoint has ended already.
     */
    private static void ended(List<Settlement.Pending> outcomes, boolean committed) {
        for (Settlement.Pending p : outcomes) {
            DeliveryTransaction tx = p.d().transaction();
            if (tx != null) {
                tx.ended(committed && tx.keeps());
            }
        }
    }

    /**
     * Stops handing claims to the settle threads (a claim whose last handler returns later settles on that
     * handler's thread) and waits up to {@code deadline} for the settlements under way; each settle thread
     * ends once it is done.
     */
    @Override
    public void stop(long deadline) {
        lock.lock();
        try {
            open = false;
            threads.shutdown();
            long left = deadline - System.nanoTime();
            while (underWay > 0 && left > 0) {
                left = idle.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void awaitUnderWay(long until) {
        stop(until);
    }

    /**
     * Rolls a claim's transaction back, unless its settlement has begun, so its rows return at once: each
     * row's lock counts as released; where the rollback fails, the connection ends its session instead and
     * counts once as closed.
     */
    @Override
    public Settlement.Release release(InWork d) {
        ClaimGroup group = ((RowLockDelivery) d).group;
        DeliveryTransaction tx = d.transaction();
        if (tx != null) {
            tx.abandon();
        }
        group.lock.lock();
        try {
            if (group.state() == ClaimGroup.State.OPEN) {
                if (tx != null) {
                    tx.ended(false);
                }
                try {
                    Transactions.rollback(group.connection, ctx.statements.opening());
                    group.end(ClaimGroup.State.RELEASED);
                    group.releasedAtClose = true;
                    return Settlement.Release.LOCK_RELEASED;
                } catch (SQLException | RuntimeException e) {
                    LOG.debug("the rollback of a claim of {} failed; its connection ends its session: {}",
                            ctx.queue, e.toString());
                    group.end(ClaimGroup.State.RELEASED, ctx.broker.dataSource);
                    return Settlement.Release.CONNECTION_CLOSED;
                }
            }
            return group.releasedAtClose ? Settlement.Release.LOCK_RELEASED : Settlement.Release.KEPT;
        } finally {
            group.lock.unlock();
        }
    }
}
