package dev.tablequeue.broker;

/**
 * A row lock delivery: its row is locked by its claim's transaction, which it shares with the claim's other
 * rows ({@link ClaimGroup}) and which commits once every one of them is settled ({@link ClaimCompleter}).
 */
final class RowLockDelivery extends InWork {
    final ClaimGroup group;
    private final RowLockTransaction tx;

    RowLockDelivery(SubscriptionContext subscription, ClaimedRow row, ClaimGroup group) {
        super(subscription, row);
        this.group = group;
        this.tx = subscription.transactional ? new RowLockTransaction(subscription, this) : null;
    }

    @Override
    RowLockTransaction transaction() {
        return tx;
    }
}
