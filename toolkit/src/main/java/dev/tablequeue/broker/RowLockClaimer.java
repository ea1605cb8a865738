package dev.tablequeue.broker;

import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.dialect.QueueClaims;
import dev.tablequeue.internal.Transactions;
import dev.tablequeue.transport.SettlementJoin;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Row lock: claims rows in a transaction that stays open while their handlers run, on a connection the
 * claim's {@link ClaimGroup} keeps until the group's settlement commits it ({@link ClaimCompleter}). The claim
 * is its dialect's ({@link QueueClaims#claimLocked}), and its transaction holds its own rows and no others. A
 * claim that came back short may have passed over rows another claim's transaction held: that transaction's
 * end wakes the subscription ({@link ShortClaims}).
 */
final class RowLockClaimer implements Claimer {
    private final SubscriptionContext ctx;
    private final QueueClaims claims;
    private final ClaimedRows<ClaimedRow> rows;
    private final ShortClaims shortClaims = new ShortClaims();
    /** The handler middlewares that write in a claim's transaction for the rows it took. */
    private final List<SettlementJoin> joins;

    RowLockClaimer(SubscriptionContext ctx) {
        this.ctx = ctx;
        this.claims = ctx.statements.claims();
        this.rows = new ClaimSteps.Delivered(ctx.reader);
        this.joins = ctx.broker.middlewares.joins();
    }

    /**
     * Claims rows for up to {@code free} workers in one transaction; in transactional mode, where each
     * delivery's handler writes through its claim's transaction, one row per claim and connection, each claim
     * beside the first only where a budget permit is free at once.
     */
    @Override
    public void claim(int free, Dispatch dispatch) throws Exception {
        if (!dispatch.permit()) {
            return;
        }
        if (!ctx.transactional) {
            claimOnce(claims.limit(free), dispatch);
            return;
        }
        for (int claimed = 0; claimOnce(1, dispatch) && ++claimed < free; ) {
            if (!ctx.broker.budget.acquire(0)) {
                return;
            }
        }
    }

    /** One claim of up to {@code limit} rows, holding a permit the caller took; false where it found none. */
    private boolean claimOnce(int limit, Dispatch dispatch) throws Exception {
        var opening = ctx.statements.opening();
        Connection c = null;
        boolean handedOver = false;
        long number = shortClaims.begin();
        boolean cameBackShort = false;
        try {
            c = ctx.broker.dataSource.getConnection();
            Transactions.begin(c, opening);
            List<ClaimedRow> rows;
            try {
                Instant now = ctx.now();
                rows = claims.claimLocked(c, ctx.queue.group(), now, limit, this.rows);
            } catch (Exception e) {
                Transactions.rollbackQuietly(c, opening);
                throw e;
            }
            cameBackShort = rows.size() < limit;
            if (rows.isEmpty()) {
                Transactions.rollbackQuietly(c, opening);
                return false;
            }
            ClaimGroup group = new ClaimGroup(c, rows.size(), () -> ended(number));
            List<InWork> claimed = new ArrayList<>(rows.size());
            for (ClaimedRow row : rows) {
                claimed.add(new RowLockDelivery(ctx, row, group));
            }
            joinClaim(c, claimed);
            handedOver = true;
            for (InWork d : claimed) {
                dispatch.dispatch(d);
            }
            return true;
        } finally {
            shortClaims.end(number, cameBackShort);
            if (!handedOver) {
                if (c != null) {
                    c.close();
                }
                ctx.broker.budget.release();
            }
        }
    }

    /**
     * Runs the statements handler middlewares write for the claimed rows in the claim's transaction
     * ({@link SettlementJoin#claimed}); where one fails, the claim rolls back and fails, naming the table.
     */
    private void joinClaim(Connection c, List<InWork> claimed) throws SQLException {
        if (joins.isEmpty()) {
            return;
        }
        List<Delivery> deliveries = List.copyOf(claimed);
        for (SettlementJoin join : joins) {
            try {
                join.claimed(c, deliveries);
            } catch (SQLException | RuntimeException e) {
                Transactions.rollbackQuietly(c, ctx.statements.opening());
                throw new SQLException("the statements " + join.getClass().getSimpleName() + " writes in the claim's"
                        + " transaction for rows " + claimed.stream().map(InWork::id).toList() + " of table \""
                        + ctx.binding.tableName() + "\" (queue " + ctx.queue + ") failed, so the claim rolled back: "
                        + e.getMessage(), e);
            }
        }
    }

    /**
     * The transaction of claim {@code number} has ended and its connection closed: the budget permit goes back,
     * and where a later claim came back short, the rows this transaction held are free for the claim it wakes.
     */
    private void ended(long number) {
        ctx.broker.budget.release();
        if (shortClaims.passedOverSince(number)) {
            ctx.returned(Duration.ZERO);
        }
    }
}
