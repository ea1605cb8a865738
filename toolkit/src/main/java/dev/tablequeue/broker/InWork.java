package dev.tablequeue.broker;

import java.sql.Connection;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.TableField;
import org.jooq.impl.DSL;

/**
 * A delivery in work: what its handler sees, and what its settlement needs (the connection that holds it,
 * its lease token, its advisory key). Its state moves once from in work to settled or released.
 */
final class InWork implements Delivery {
    enum State {
        IN_WORK,
        SETTLED,
        RELEASED
    }

    /** Deliveries by their {@link #place} in their claim. */
    static final Comparator<InWork> IN_CLAIM_ORDER = Comparator.comparingInt(d -> d.place);

    private final SubscriptionContext subscription;
    final ClaimedRow row;
    final Connection connection;
    final String advisoryKey;
    /** The row lock claim this delivery came in with, whose transaction it shares; null in other forms. */
    final ClaimGroup group;
    volatile Instant leaseHeld;
    /** What the row failed with, where a failure policy settles it: its last error. */
    volatile Throwable failure;
    /** Set when the lock release was not confirmed, so the connection must end its session. */
    volatile boolean evicted;
    final AtomicReference<State> state = new AtomicReference<>(State.IN_WORK);
    /** Set once the listener has been told this delivery's lease was lost. */
    final AtomicBoolean leaseLostReported = new AtomicBoolean();
    /** Orders a lease extension and the settlement, which both read and move the token. */
    final ReentrantLock lock = new ReentrantLock();
    /** Advisory: counted down once the connection has gone back, by the settlement or by a release. */
    final CountDownLatch connectionBack = new CountDownLatch(1);
    /**
     * The row's place in its claim, in claim order, where the claim's connections take rows side by side
     * (advisory) and finish in any order; 0 elsewhere, where rows are handed over in claim order. A batch
     * lists its rows by it. Set before the delivery is handed over.
     */
    int place;
    /** The transaction the handler writes through, where the subscription is transactional; else null. */
    final DeliveryTransaction tx;

    InWork(SubscriptionContext subscription, ClaimedRow row, Connection connection, String advisoryKey,
            Instant leaseHeld) {
        this(subscription, row, connection, advisoryKey, leaseHeld, null);
    }

    InWork(SubscriptionContext subscription, ClaimedRow row, Connection connection, String advisoryKey,
            Instant leaseHeld, ClaimGroup group) {
        this.group = group;
        this.subscription = subscription;
        this.row = row;
        this.connection = connection;
        this.advisoryKey = advisoryKey;
        this.leaseHeld = leaseHeld;
        this.tx = subscription.transactional ? new DeliveryTransaction(subscription, this) : null;
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
        if (tx == null) {
            throw new IllegalStateException("delivery.tx() is the delivery's transaction, which a subscription mounted"
                    + " with transactional() opens; queue " + subscription.queue + " of table \""
                    + subscription.binding.tableName() + "\" is mounted without that step: add .transactional() to"
                    + " its subscribe(..) chain, or write through db(), which commits each statement on its own");
        }
        return tx.dsl();
    }

    @Override
    public boolean joinsSettlement() {
        return subscription.binding.form() != dev.tablequeue.binding.Form.ADVISORY;
    }

    @Override
    public String toString() {
        return "delivery " + row.id() + " of " + subscription.queue;
    }
}
