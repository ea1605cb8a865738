package dev.tablequeue.broker;

import java.sql.Connection;
import java.util.List;

/**
 * Row lock: claims rows in a transaction that stays open while their handlers run, on a connection the
 * claim's {@link ClaimGroup} keeps until the group's settlement commits it ({@link ClaimCompleter}).
 */
final class RowLockClaimer implements Claimer {
    private final SubscriptionContext ctx;
    private final ClaimSteps steps;

    RowLockClaimer(SubscriptionContext ctx, ClaimSteps steps) {
        this.ctx = ctx;
        this.steps = steps;
    }

    @Override
    public void claim(int free, Dispatch dispatch) throws Exception {
        if (!dispatch.permit()) {
            return;
        }
        var opening = ctx.statements.opening();
        Connection c = null;
        boolean handedOver = false;
        try {
            c = ctx.broker.dataSource.getConnection();
            Transactions.begin(c, opening);
            List<ClaimedRow> rows;
            try {
                rows = steps.claim(c, ctx.now(), null, steps.limit(free));
            } catch (Exception e) {
                Transactions.rollbackQuietly(c, opening);
                throw e;
            }
            if (rows.isEmpty()) {
                Transactions.rollbackQuietly(c, opening);
                return;
            }
            ClaimGroup group = new ClaimGroup(c, rows.size(), ctx.broker.budget::release);
            handedOver = true;
            for (ClaimedRow row : rows) {
                dispatch.dispatch(new InWork(ctx, row, c, null, null, group));
            }
        } finally {
            if (!handedOver) {
                if (c != null) {
                    c.close();
                }
                ctx.broker.budget.release();
            }
        }
    }
}
