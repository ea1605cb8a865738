package dev.tablequeue.broker;

import dev.tablequeue.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * An advisory delivery's transaction: opened on the connection that holds the row's key, and ended before
 * the key is released, by the acknowledgement's commit or by a rollback.
 */
final class AdvisoryTransaction extends DeliveryTransaction {
    private final AdvisoryDelivery d;

    AdvisoryTransaction(SubscriptionContext ctx, AdvisoryDelivery d) {
        super(ctx, d);
        this.d = d;
    }

    @Override
    Connection connection() {
        return d.connection;
    }

    @Override
    void begin() throws SQLException {
        Transactions.begin(d.connection, ctx.statements.opening());
    }

    @Override
    void rollBackWrites() throws SQLException {
        Transactions.rollback(d.connection, ctx.statements.opening());
    }

    /** A connection whose rollback failed ends its session rather than go back to the pool. */
    @Override
    void rollBackFailed() {
        d.evicted = true;
    }

    /**
     * The drain released the delivery: no statement of its handler runs on the transaction any more, and what
     * it wrote rolls back before the key is released; false where the rollback failed, and the connection is
     * to end its session.
     */
    boolean rollBackAtRelease() {
        abandon();
        ended(false);
        if (!lent()) {
            return true;
        }
        try {
            Transactions.rollback(d.connection, ctx.statements.opening());
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }
}
