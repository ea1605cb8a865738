package dev.tablequeue.broker;

import dev.tablequeue.binding.Event;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lease: claims rows, stamps their lease and commits at once, so their handlers run with no connection held;
 * its keeper extends the lease of every delivery in work each half lease, while the row still holds the
 * delivery's token.
 */
final class LeaseClaimer implements Claimer {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseClaimer.class);

    private final SubscriptionContext ctx;
    private final ClaimSteps steps;
    private final SettlementReports reports;
    private ScheduledExecutorService keeper;

    LeaseClaimer(SubscriptionContext ctx, ClaimSteps steps, SettlementReports reports) {
        this.ctx = ctx;
        this.steps = steps;
        this.reports = reports;
    }

    @Override
    public void claim(int free, Dispatch dispatch) throws Exception {
        if (!dispatch.permit()) {
            return;
        }
        List<ClaimedRow> rows;
        Instant until;
        try {
            ctx.turn.lockInterruptibly();
        } catch (InterruptedException e) {
            ctx.broker.budget.release();
            throw e;
        }
        try (Connection c = ctx.broker.dataSource.getConnection()) {
            Instant now = ctx.now();
            until = Leases.expiry(now, ctx.lease);
            if (steps.leasesInOneStatement()) {
                // the claim leases its rows in one statement: auto-commit makes it atomic without a transaction
                rows = steps.claim(c, now, until, steps.limit(free));
            } else {
                var opening = ctx.statements.opening();
                Transactions.begin(c, opening);
                try {
                    rows = steps.claim(c, now, until, steps.limit(free));
                    steps.stamp(c, rows, until);
                    Transactions.commit(c, opening);
                } catch (Exception e) {
                    Transactions.rollbackQuietly(c, opening);
                    throw e;
                }
            }
        } finally {
            ctx.turn.unlock();
            ctx.broker.budget.release();
        }
        for (ClaimedRow row : rows) {
            dispatch.dispatch(new InWork(ctx, row, null, null, until));
        }
    }

    @Override
    public void start(String name) {
        keeper = Executors.newSingleThreadScheduledExecutor(Threads.platform(name + "-lease"));
        long every = Math.max(1, ctx.lease.toMillis() / 2);
        keeper.scheduleWithFixedDelay(this::extendAll, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (keeper != null) {
            keeper.shutdownNow();
        }
    }

    @Override
    public void awaitStopped(long until) {
        if (keeper == null) {
            return;
        }
        try {
            keeper.awaitTermination(until - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Extends the lease of every delivery in work; runs each half lease. */
    private void extendAll() {
        for (InWork d : ctx.inWork) {
            try {
                extend(d, Leases.expiry(ctx.now(), ctx.lease));
            } catch (Exception e) {
                LOG.warn("the lease of {} was not extended: {}", d, e.toString());
            }
        }
    }

    /** Moves {@code d}'s lease to {@code until} while the row still holds its token. */
    private void extend(InWork d, Instant until) throws SQLException {
        d.lock.lock();
        try {
            if (d.state.get() != InWork.State.IN_WORK || d.leaseHeld == null) {
                return;
            }
            boolean moved;
            try (Connection c = ctx.broker.dataSource.getConnection()) {
                if (ctx.binding.owns(Event.EXTEND)) {
                    moved = ctx.binding.own().extend()
                            .extend(DSL.using(c, ctx.dialect.sqlDialect()), d.id(), d.leaseHeld, until);
                } else {
                    Binds binds = new Binds().id(d.id()).leaseHeld(d.leaseHeld).leaseUntil(until);
                    moved = Jdbc.update(c, ctx.statements.extend().orElseThrow(), binds, ctx.dialect) == 1;
                }
            }
            if (moved) {
                d.leaseHeld = until;
            } else {
                LOG.warn("the lease of {} was lost: another claim may hold its row", d);
                reports.leaseLost(d);
            }
        } finally {
            d.lock.unlock();
        }
    }
}
