package dev.tablequeue.broker;

import dev.tablequeue.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A lease delivery's transaction: one of its own, on a connection of its own that holds a permit of the
 * broker's budget from the delivery's dispatch until the transaction ends. The acknowledgement is written
 * in it, checked against the lease's token, and commits with the handler's writes.
 */
final class LeaseTransaction extends DeliveryTransaction {
    private final LeaseDelivery d;
    /** The budget permit, given back once when the transaction's connection closes. */
    private final AtomicBoolean permitHeld = new AtomicBoolean(true);
    private Connection connection;
    /** Set, under the delivery's lock, once the transaction has opened. */
    private volatile boolean opened;

    LeaseTransaction(SubscriptionContext ctx, LeaseDelivery d) {
        super(ctx, d);
        this.d = d;
    }

    @Override
    Connection connection() {
        return connection;
    }

    @Override
    void begin() throws SQLException {
        connection = ctx.broker.dataSource.getConnection();
        // under the delivery's lock, as the keeper extends its lease: on a one-writer database the keeper's
        // extension and this opening wait for the same write lock, and once the transaction holds it the
        // keeper leaves the delivery alone, rather than wait for it holding the lock the acknowledgement needs
        d.lock.lock();
        try {
            Transactions.begin(connection, ctx.statements.opening());
            opened = true;
        } finally {
            d.lock.unlock();
        }
    }

    @Override
    void rollBackWrites() throws SQLException {
        Transactions.rollback(connection, ctx.statements.opening());
    }

    /** Its connection closes once what the handler wrote is rolled back. */
    @Override
    void rolledBack() {
        end();
    }

    @Override
    void abandon() {
        super.abandon();
        if (!lent()) {
            end();
        }
    }

    /**
     * Whether the transaction is open, from its opening to its end: on a database that takes one writer at a
     * time, it holds that database's write lock meanwhile (SQLite's immediate and exclusive modes from the
     * start, the deferred mode from its first write).
     */
    boolean holdsTheDatabase() {
        return opened && permitHeld.get();
    }

    /**
     * Closes the transaction's connection (a transaction still open rolls back with it) and gives its budget
     * permit back; once, whatever calls it first.
     */
    void end() {
        if (!permitHeld.compareAndSet(true, false)) {
            return;
        }
        ended(false);
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException | RuntimeException ignored) {
            // the pool takes a broken connection back and drops it
        } finally {
            ctx.broker.budget.release();
        }
    }
}
