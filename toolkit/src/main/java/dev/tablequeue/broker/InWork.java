package dev.tablequeue.broker;

import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.TableField;
import org.jooq.impl.DSL;

/**
 * A delivery in work: what its handler sees, and the state every form's settlement reads (its row, what it
 * failed with, whether it is settled). What holds the row is its form's: a claim's transaction
 * ({@link RowLockDelivery}), a lease token ({@link LeaseDelivery}), a key on a connection
 * ({@link AdvisoryDelivery}). Its state moves once from in work to settled or released.
 */
abstract sealed class InWork implements Delivery permits RowLockDelivery, LeaseDelivery, AdvisoryDelivery {
    enum State {
        IN_WORK,
        SETTLED,
        RELEASED
    }

    /** Deliveries by their {@link #place} in their claim. */
    static final Comparator<InWork> IN_CLAIM_ORDER = Comparator.comparingInt(d -> d.place);

    final SubscriptionContext subscription;
    final ClaimedRow row;
    /** What the row failed with, where a failure policy settles it: its last error. */
    volatile Throwable failure;
    final AtomicReference<State> state = new AtomicReference<>(State.IN_WORK);
    /**
     * The row's place in its claim, in claim order, where the claim's connections take rows side by side
     * (advisory) and finish in any order; 0 elsewhere, where rows are handed over in claim order. A batch
     * lists its rows by it. Set before the delivery is handed over.
     */
    int place;

    InWork(SubscriptionContext subscription, ClaimedRow row) {
        this.subscription = subscription;
        this.row = row;
    }

    /**
     * The transaction the handler writes through, of the delivery's form, where the subscription is
     * transactional; else null.
     */
    abstract DeliveryTransaction transaction();

    /** The lease token the delivery's settlement checks: its lease form's, none in the other forms. */
    Instant leaseHeld() {
        return null;
    }

    @Override
    public Object id() {
        return row.id();
    }

    @Override
    public <V> V id(Field<V> idColumn) {
        Field<?> id = subscription.binding.id();
        boolean otherTable = idColumn instanceof TableField<?, ?> column && column.getTable() != null
                && !column.getTable().equals(subscription.binding.table());
        if (otherTable || !idColumn.getName().equals(id.getName())) {
            throw new IllegalArgumentException("id(" + idColumn + ") reads the id of a delivery of table \""
                    + subscription.binding.tableName() + "\", whose id column is \"" + id.getName() + "\"");
        }
        return DSL.val(row.id(), idColumn.getDataType()).getValue();
    }

    @Override
    public String queue() {
        return subscription.queue.name();
    }

    @Override
    public String table() {
        return subscription.binding.tableName();
    }

    @Override
    public OptionalInt attempt() {
        return row.attempt();
    }

    @Override
    public Map<String, String> headers() {
        return row.headers();
    }

    @Override
    public Object partitionKey() {
        return row.partitionKey();
    }

    @Override
    public DSLContext db() {
        return subscription.db;
    }

    @Override
    public DSLContext tx() {
        DeliveryTransaction tx = transaction();
        if (tx == null) {
            throw new IllegalStateException("delivery.tx() is the delivery's transaction, which a subscription mounted"
                    + " with transactional() opens; queue " + subscription.queue + " of table \""
                    + subscription.binding.tableName() + "\" is mounted without that step: add .transactional() to"
                    + " its subscribe(..) chain, or write through db(), which commits each statement on its own");
        }
        return tx.dsl();
    }

    /** A row lock or lease delivery's settlement is a transaction the handler middlewares may write in. */
    @Override
    public boolean joinsSettlement() {
        return true;
    }

    @Override
    public String toString() {
        return "delivery " + row.id() + " of " + subscription.queue;
    }
}
