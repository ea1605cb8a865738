package dev.tablequeue.broker;

import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.dialect.QueueClaims;
import dev.tablequeue.transport.SettlementJoin;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    private final QueueClaims claims;
    private final ClaimedRows<ClaimedRow> read;
    private final SettlementReports reports;
    /** The handler middlewares that read for a claim's rows on its connection ({@link SettlementJoin#leased}). */
    private final List<SettlementJoin> joins;
    private ScheduledExecutorService keeper;

    LeaseClaimer(SubscriptionContext ctx, SettlementReports reports) {
        this.ctx = ctx;
        this.claims = ctx.statements.claims();
        this.read = new ClaimSteps.Delivered(ctx.reader);
        this.reports = reports;
        this.joins = ctx.broker.middlewares.joins();
    }

    @Override
    public void claim(int free, Dispatch dispatch) throws Exception {
        if (!dispatch.permit()) {
            return;
        }
        int limit = claims.limit(free);
        // in transactional mode each delivery holds a connection for its transaction: the claim's permit
        // passes to the first, and the claim takes rows only for the further permits free at once
        int permits = 1;
        while (ctx.transactional && permits < limit && ctx.broker.budget.acquire(0)) {
            permits++;
        }
        limit = ctx.transactional ? permits : limit;
        List<ClaimedRow> rows = List.of();
        List<LeaseDelivery> claimed = List.of();
        try {
            ctx.turn.lockInterruptibly();
        } catch (InterruptedException e) {
            release(permits);
            throw e;
        }
        boolean turnHeld = true;
        try (Connection c = ctx.broker.dataSource.getConnection()) {
            Instant now = ctx.now();
            Instant until = Leases.expiry(now, ctx.lease);
            rows = claims.claimLeased(c, ctx.queue.group(), now, until, limit, read);
            ctx.turn.unlock();
            turnHeld = false;
            claimed = new ArrayList<>(rows.size());
            for (ClaimedRow row : rows) {
                claimed.add(new LeaseDelivery(ctx, row, until));
            }
            joinLease(c, claimed);
        } finally {
            if (turnHeld) {
                ctx.turn.unlock();
            }
            // the claim's connection has gone back; the deliveries' transactions keep a permit each
            release(ctx.transactional ? permits - rows.size() : 1);
        }
        for (LeaseDelivery d : claimed) {
            dispatch.dispatch(d);
        }
    }

    /**
     * Gives the claimed rows to the handler middlewares that read for them at the claim
     * ({@link SettlementJoin#leased}), on the claim's connection; a failure is logged, and the rows go on.
     */
    private void joinLease(Connection c, List<LeaseDelivery> claimed) {
        if (joins.isEmpty() || claimed.isEmpty()) {
            return;
        }
        List<Delivery> deliveries = List.copyOf(claimed);
        for (SettlementJoin join : joins) {
            try {
                join.leased(c, deliveries);
            } catch (SQLException | RuntimeException e) {
                LOG.warn("{} failed to read for rows {} of table \"{}\" (queue {}) at their claim; they go to their"
                        + " handlers all the same: {}", join.getClass().getSimpleName(),
                        claimed.stream().map(InWork::id).toList(), ctx.binding.tableName(), ctx.queue, e.toString());
            }
        }
    }

    private void release(int permits) {
        for (int i = 0; i < permits; i++) {
            ctx.broker.budget.release();
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

    /**
     * Extends the lease of every delivery in work; runs each half lease. A transactional delivery whose
     * transaction holds a one-writer database (SQLite) is passed over while it does.
     */
    private void extendAll() {
        for (InWork w : ctx.inWork) {
            LeaseDelivery d = (LeaseDelivery) w;
            if (holdsTheDatabase(d)) {
                continue;
            }
            try {
                extend(d, Leases.expiry(ctx.now(), ctx.lease));
            } catch (Exception e) {
                LOG.warn("the lease of {} was not extended: {}", d, e.toString());
            }
        }
    }

    /**
     * Whether {@code d}'s transaction holds a database that takes one writer: it keeps every other writer out
     * (another claim of its row included) until it settles, and an extension would wait for it while holding
     * the delivery, which its settlement needs: a deadlock until the busy timeout. Asked again under the
     * delivery's lock, under which the transaction opens.
     */
    private boolean holdsTheDatabase(LeaseDelivery d) {
        return d.transaction() != null && !ctx.dialect.claimsInParallel() && d.transaction().holdsTheDatabase();
    }

    /**
     * Moves {@code d}'s lease to {@code until} while the row still holds its token. Where the connection fails
     * (the server killed the session, the network dropped), the extension is written again on another one
     * while the lease holds, rather than at the keeper's next run, which may come after the lease ran out. An
     * attempt cut off with its connection may have been written all the same, moving the row to its expiry:
     * the later attempts take that one for the delivery's token as well, so the delivery keeps the lease its
     * own extension moved.
     */
    private void extend(LeaseDelivery d, Instant until) throws SQLException {
        d.lock.lock();
        try {
            if (d.state.get() != InWork.State.IN_WORK || d.held == null || holdsTheDatabase(d)) {
                return;
            }
            List<Instant> mayHold = new ArrayList<>(2);
            Instant next = until;
            long pause = LostConnection.FIRST_PAUSE_MILLIS;
            while (true) {
                try {
                    if (moveLease(d, d.held, next) || movedFromOneItMayHold(d, mayHold, next)) {
                        d.held = next;
                    } else {
                        LOG.warn("the lease of {} was lost: another claim may hold its row", d);
                        reports.leaseLost(d);
                    }
                    return;
                } catch (LostConnection e) {
                    if (e.atCommit) {
                        mayHold.add(next);
                    }
                    if (!ctx.now().plusMillis(pause).isBefore(d.held) || !LostConnection.pause(pause)) {
                        throw e.getCause() instanceof SQLException sql ? sql
                                : new SQLException("the lease extension's connection failed", e.getCause());
                    }
                    LOG.info("the connection extending the lease of {} failed, extending it again on another while"
                            + " the lease holds: {}", d, SettlementReports.reason(e.getCause()));
                    pause = Math.min(pause * 2, 1_000);
                    next = Leases.expiry(ctx.now(), ctx.lease);
                }
            }
        } finally {
            d.lock.unlock();
        }
    }

    /** Moves the lease from a token an earlier, cut off, extension may have written; true where one held. */
    private boolean movedFromOneItMayHold(LeaseDelivery d, List<Instant> mayHold, Instant next)
            throws SQLException, LostConnection {
        for (Instant held : mayHold) {
            if (moveLease(d, held, next)) {
                return true;
            }
        }
        return false;
    }

    /**
     * One extension's statement, on a connection of its own, in auto-commit: true where the row held
     * {@code held}.
     *
     * @throws LostConnection where the connection failed; "at commit" where the statement had been sent
     */
    private boolean moveLease(LeaseDelivery d, Instant held, Instant until) throws SQLException, LostConnection {
        boolean connected = false;
        try (Connection c = ctx.broker.dataSource.getConnection()) {
            connected = true;
            try {
                return ctx.statements.claims().extendLease(c, d.id(), held, until);
            } catch (SQLException | RuntimeException e) {
                if (Connections.lost(e, c)) {
                    throw new LostConnection(e, true);
                }
                throw e;
            }
        } catch (SQLException e) {
            // no connection came (the pool timed out, the server is restarting): nothing was sent; a statement's
            // failure on a sound connection was told from a lost connection above
            if (!connected && Connections.lost(e, null)) {
                throw new LostConnection(e, false);
            }
            throw e;
        }
    }
}
