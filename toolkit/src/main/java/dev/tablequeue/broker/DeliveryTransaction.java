package dev.tablequeue.broker;

import dev.tablequeue.TransactionHeldException;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.Transactions;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.slf4j.LoggerFactory;

/**
 * The transaction a transactional subscription's handler writes through, {@code delivery.tx()}, of its
 * delivery's form: the claim's own from a savepoint set right after the claim ({@link RowLockTransaction}),
 * one on a connection of its own ({@link LeaseTransaction}), or one on the connection that holds the row's
 * key ({@link AdvisoryTransaction}). It opens on the handler's thread before the handler runs, at the
 * binding's isolation level or SQLite mode.
 *
 * <p>Its jOOQ context lends the connection to each statement and takes it back after: once the handler has
 * returned, a statement fails with {@link TransactionHeldException}. A handler that returned while one of
 * its statements still ran has its writes rolled back. The handler cannot end the transaction itself
 * ({@code commit}, {@code rollback}, auto-commit): an acknowledgement commits it with the row's settlement,
 * and every other outcome rolls it back first. A jOOQ {@code transaction(..)} on it is a savepoint.
 */
abstract sealed class DeliveryTransaction implements ConnectionProvider, TransactionProvider
        permits RowLockTransaction, LeaseTransaction, AdvisoryTransaction {
    /** What the handler may not call on the connection: the transaction's end is the settlement's. */
    private static final Set<String> ENDS = Set.of("commit", "setAutoCommit", "setTransactionIsolation", "abort");

    final SubscriptionContext ctx;
    private final InWork d;
    private final ReentrantLock guard = new ReentrantLock();
    private final Condition idle = guard.newCondition();
    private volatile Connection lent;
    private DSLContext dsl;
    /** Under {@link #guard}: statements running on the lent connection, and whether it is lent at all. */
    private int running;
    private boolean lending;
    private volatile boolean keeps;
    /** What a {@link HandlerScope} asked to run once the transaction ends, and whether it has. */
    private final List<Consumer<Boolean>> whenEnded = new CopyOnWriteArrayList<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    /** The savepoints the handler's jOOQ transactions have set, for their names. */
    private final AtomicInteger savepoints = new AtomicInteger();

    DeliveryTransaction(SubscriptionContext ctx, InWork d) {
        this.ctx = ctx;
        this.d = d;
    }

    /** The connection the transaction runs on (the real one, not the handler's). */
    abstract Connection connection();

    /** Begins the transaction, on the handler's thread, before the handler runs. */
    abstract void begin() throws SQLException;

    /** Rolls back what the handler wrote, before the row's settlement is written. */
    abstract void rollBackWrites() throws SQLException;

    /** The rollback of the handler's writes failed: the connection's transaction is gone. */
    void rollBackFailed() {}

    /** The handler's writes have been rolled back, or their rollback failed. */
    void rolledBack() {}

    /** Opens the transaction, on the handler's thread, before the handler runs. */
    final void open() throws SQLException {
        begin();
        lent = (Connection) Proxy.newProxyInstance(DeliveryTransaction.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new Lent());
        guard.lock();
        try {
            lending = true;
        } finally {
            guard.unlock();
        }
    }

    /** The handler's jOOQ context on this transaction, with the broker's settings and listeners. */
    DSLContext dsl() {
        if (dsl == null) {
            dsl = DSL.using(ctx.broker.db.configuration().derive((ConnectionProvider) this)
                    .derive((TransactionProvider) this));
        }
        return dsl;
    }

    /**
     * The handler has returned: no statement runs on the transaction any more. Waits for one still running
     * (on a thread the handler started) to end; true where one was.
     */
    boolean endHandler() {
        guard.lock();
        try {
            lending = false;
            boolean held = running > 0;
            while (running > 0) {
                idle.awaitUninterruptibly();
            }
            return held;
        } finally {
            guard.unlock();
        }
    }

    /**
     * Decides the fate of the handler's writes: kept, they commit with the acknowledgement; otherwise they
     * are rolled back now, before the row's settlement is written.
     */
    final void decide(boolean keep) {
        keeps = keep;
        if (keep) {
            return;
        }
        try {
            rollBackWrites();
        } catch (SQLException | RuntimeException e) {
            // a broken connection's transaction is gone; the settlement that follows meets the same failure
            rollBackFailed();
        } finally {
            ended(false);
            rolledBack();
        }
    }

    /** The transaction as a {@link HandlerScope} sees it. */
    HandlerScope.HeldTransaction held() {
        return new HandlerScope.HeldTransaction() {
            @Override
            public Connection connection() {
                return lent;
            }

            @Override
            public void whenEnded(Consumer<Boolean> callback) {
                whenEnded.add(callback);
                if (ended.get() && whenEnded.remove(callback)) {
                    callback.accept(false);
                }
            }
        };
    }

    /**
     * The transaction has ended, committed or not (a commit whose fate is unknown counts as not): runs what a
     * scope asked to run then, once; a failure of one is logged and the others run.
     */
    void ended(boolean committed) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        for (Consumer<Boolean> callback : whenEnded) {
            whenEnded.remove(callback);
            try {
                callback.accept(committed);
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(DeliveryTransaction.class).warn("what a handler scope ran after {}"
                        + " ended failed: {}", named(), e.toString());
            }
        }
    }

    /** Whether the acknowledgement is to commit the handler's writes with the row's settlement. */
    boolean keeps() {
        return keeps;
    }

    /**
     * Commits the transaction, the handler's writes with the acknowledgement written in it (the lease and
     * advisory forms; the row lock form's commits with its claim's).
     */
    void commit() throws SQLException {
        Transactions.commit(connection(), ctx.statements.opening());
        ended(true);
    }

    /** Rolls the transaction back where the acknowledgement written in it failed. */
    void rollbackQuietly() {
        Transactions.rollbackQuietly(connection(), ctx.statements.opening());
        ended(false);
    }

    /** A delivery that does not go into work, or one the drain released: no statement runs on it any more. */
    void abandon() {
        guard.lock();
        try {
            lending = false;
        } finally {
            guard.unlock();
        }
    }

    /** Whether the transaction has been opened for the handler. */
    boolean lent() {
        return lent != null;
    }

    private String named() {
        return "the transaction of row " + d.id() + " of table \"" + ctx.binding.tableName() + "\" (queue "
                + ctx.queue + ")";
    }

    // ------------------------------------------------------------------ jOOQ's side

    @Override
    public Connection acquire() {
        guard.lock();
        try {
            if (!lending) {
                throw new TransactionHeldException("delivery.tx() was used after its handler returned: " + named()
                        + " ends with the delivery's settlement, so this statement ran nowhere and commits nothing;"
                        + " run the handler's statements before it returns");
            }
            running++;
            return lent;
        } finally {
            guard.unlock();
        }
    }

    @Override
    public void release(Connection released) {
        guard.lock();
        try {
            if (--running == 0) {
                idle.signalAll();
            }
        } finally {
            guard.unlock();
        }
    }

    /**
     * A jOOQ transaction inside the delivery's: a savepoint, released at its commit, written as SQL (a SQLite
     * driver's savepoint API would take the connection out of the explicit transaction it runs in).
     */
    @Override
    public void begin(TransactionContext tx) {
        Nested nested = new Nested("tq_savepoint_" + savepoints.incrementAndGet());
        savepoint("SAVEPOINT " + nested.name);
        tx.transaction(nested);
    }

    @Override
    public void commit(TransactionContext tx) {
        savepoint("RELEASE SAVEPOINT " + ((Nested) tx.transaction()).name);
    }

    @Override
    public void rollback(TransactionContext tx) {
        if (tx.transaction() instanceof Nested nested) {
            savepoint("ROLLBACK TO SAVEPOINT " + nested.name);
        }
    }

    private void savepoint(String sql) {
        acquire();
        try {
            Jdbc.execute(connection(), sql);
        } catch (SQLException e) {
            throw new DataAccessException(sql + " in " + named() + " failed: " + e.getMessage(), e);
        } finally {
            release(lent);
        }
    }

    private record Nested(String name) implements org.jooq.Transaction {}

    /** The connection as the handler sees it: the delivery's, with its transaction's end kept back. */
    private final class Lent implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.equals("close")) {
                return null;
            }
            Connection connection = connection();
            if (name.equals("isClosed")) {
                return !lending || connection.isClosed();
            }
            if (name.equals("getAutoCommit")) {
                // always in the delivery's transaction, even where SQLite opened it in SQL with auto-commit on
                return false;
            }
            if (ENDS.contains(name) || name.equals("rollback") && (args == null || args.length == 0)) {
                throw new SQLException("delivery.tx() cannot " + name + " " + named() + ": an acknowledgement"
                        + " commits it with the row's settlement, and every other outcome rolls it back");
            }
            try {
                return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
