package dev.tablequeue.broker;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * A row lock delivery's transaction: its claim's, from a savepoint set right after the claim. What the
 * handler wrote commits with the claim's settlement where the acknowledgement keeps it; any other outcome
 * rolls back to the savepoint, unless the claim's transaction has ended already.
 */
final class RowLockTransaction extends DeliveryTransaction {
    private final RowLockDelivery d;
    private Savepoint afterClaim;

    RowLockTransaction(SubscriptionContext ctx, RowLockDelivery d) {
        super(ctx, d);
        this.d = d;
    }

    @Override
    Connection connection() {
        return d.group.connection;
    }

    @Override
    void begin() throws SQLException {
        afterClaim = connection().setSavepoint();
    }

    @Override
    void rollBackWrites() throws SQLException {
        if (afterClaim == null) {
            return;
        }
        ClaimGroup group = d.group;
        group.lock.lock();
        try {
            if (group.state() == ClaimGroup.State.OPEN) {
                group.connection.rollback(afterClaim);
            }
        } finally {
            group.lock.unlock();
        }
    }
}
