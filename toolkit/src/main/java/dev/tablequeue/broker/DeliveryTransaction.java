package dev.tablequeue.broker;

import dev.tablequeue.TransactionHeldException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.Transactions;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The transaction a transactional subscription's handler writes through, {@code delivery.tx()}: in the row
 * lock form the claim's own, from a savepoint set right after the claim; in the lease form one of its own,
 * on a connection of its own that holds a permit of the broker's budget; in the advisory form one opened on
 * the connection that holds the row's key. It opens on the handler's thread before the handler runs, at
 * the binding's isolation level or SQLite mode.
 *
 * <p>Its jOOQ context lends the connection to each statement and takes it back after: once the handler has
 * returned, a statement fails with {@link TransactionHeldException}. A handler that returned while one of
 * its statements still ran has its writes rolled back. The handler cannot end the transaction itself
 * ({@code commit}, {@code rollback}, auto-commit): an acknowledgement commits it with the row's settlement,
 * and every other outcome rolls it back first. A jOOQ {@code transaction(..)} on it is a savepoint.
 */
final class DeliveryTransaction implements ConnectionProvider, TransactionProvider {
    /** What the handler may not call on the connection: the transaction's end is the settlement's. */
    private static final Set<String> ENDS = Set.of("commit", "setAutoCommit", "setTransactionIsolation", "abort");

    private final SubscriptionContext ctx;
    private final InWork d;
    private final Form form;
    private final ReentrantLock guard = new ReentrantLock();
    private final Condition idle = guard.newCondition();
    /** The lease form's budget permit, given back once when the transaction's connection closes. */
    private final AtomicBoolean permitHeld;
    private Connection connection;
    private volatile Connection lent;
    private Savepoint afterClaim;
    private DSLContext dsl;
    /** Under {@link #guard}: statements running on the lent connection, and whether it is lent at all. */
    private int running;
    private boolean lending;
    private volatile boolean keeps;
    /** What a {@link HandlerScope} asked to run once the transaction ends, and whether it has. */
    private final java.util.List<java.util.function.Consumer<Boolean>> whenEnded =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    /** Set, under the delivery's lock, once the transaction of its own (lease form) has opened. */
    private volatile boolean opened;
    /** The savepoints the handler's jOOQ transactions have set, for their names. */
    private final java.util.concurrent.atomic.AtomicInteger savepoints = new java.util.concurrent.atomic.AtomicInteger();

    DeliveryTransaction(SubscriptionContext ctx, InWork d) {
        this.ctx = ctx;
        this.d = d;
        this.form = ctx.binding.form();
        this.connection = d.connection;
        this.permitHeld = new AtomicBoolean(form == Form.LEASE);
    }

    /** Opens the transaction, on the handler's thread, before the handler runs. */
    void open() throws SQLException {
        switch (form) {
            case ROW_LOCK -> afterClaim = connection.setSavepoint();
            case LEASE -> {
                connection = ctx.broker.dataSource.getConnection();
                // under the delivery's lock, as the keeper extends its lease: on a one-writer database the
                // keeper's extension and this opening wait for the same write lock, and once the transaction
                // holds it the keeper leaves the delivery alone, rather than wait for it holding the lock
                // the acknowledgement needs
                d.lock.lock();
                try {
                    Transactions.begin(connection, ctx.statements.opening());
                    opened = true;
                } finally {
                    d.lock.unlock();
                }
            }
            case ADVISORY -> Transactions.begin(connection, ctx.statements.opening());
        }
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
     * are rolled back now, before the row's settlement is written (the row lock form back to the savepoint
     * after the claim; the lease form's own transaction ends and its connection closes).
     */
    void decide(boolean keep) {
        keeps = keep;
        if (keep) {
            return;
        }
        try {
            if (form == Form.ROW_LOCK) {
                rollbackToClaim();
            } else {
                Transactions.rollback(connection, ctx.statements.opening());
            }
        } catch (SQLException | RuntimeException e) {
            // a broken connection's transaction is gone; the settlement that follows meets the same failure
            if (form == Form.ADVISORY) {
                d.evicted = true;
            }
        } finally {
            ended(false);
            if (form == Form.LEASE) {
                end();
            }
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
            public void whenEnded(java.util.function.Consumer<Boolean> callback) {
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
        for (java.util.function.Consumer<Boolean> callback : whenEnded) {
            whenEnded.remove(callback);
            try {
                callback.accept(committed);
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(DeliveryTransaction.class).warn("what a handler scope ran after {}"
                        + " ended failed: {}", named(), e.toString());
            }
        }
    }

    private void rollbackToClaim() throws SQLException {
        ClaimGroup group = d.group;
        if (afterClaim == null) {
            return;
        }
        group.lock.lock();
        try {
            if (group.state() == ClaimGroup.State.OPEN) {
                connection.rollback(afterClaim);
            }
        } finally {
            group.lock.unlock();
        }
    }

    /**
     * Whether the transaction of its own (lease form) is open, from its opening to its end: on a database that
     * takes one writer at a time, it holds that database's write lock meanwhile (SQLite's immediate and
     * exclusive modes from the start, the deferred mode from its first write).
     */
    boolean holdsTheDatabase() {
        return opened && permitHeld.get();
    }

    /** Whether the acknowledgement is to commit the handler's writes with the row's settlement. */
    boolean keeps() {
        return keeps;
    }

    /** The connection the transaction runs on (the real one, not the handler's). */
    Connection connection() {
        return connection;
    }

    void commit() throws SQLException {
        Transactions.commit(connection, ctx.statements.opening());
        ended(true);
    }

    void rollbackQuietly() {
        Transactions.rollbackQuietly(connection, ctx.statements.opening());
        ended(false);
    }

    /**
     * The lease form: closes the transaction's own connection (a transaction still open rolls back with it)
     * and gives its budget permit back; once, whatever calls it first. Nothing in the other forms, whose
     * connection is the claim's or the key's.
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

    /** A delivery that does not go into work, or one the drain released: no statement runs on it any more. */
    void abandon() {
        guard.lock();
        try {
            lending = false;
        } finally {
            guard.unlock();
        }
        if (form == Form.LEASE && lent == null) {
            end();
        }
    }

    /**
     * The drain released the delivery (advisory form): no statement of its handler runs on the transaction
     * any more, and what it wrote rolls back before the key is released; false where the rollback failed,
     * and the connection is to end its session.
     */
    boolean rollBackAtRelease() {
        abandon();
        ended(false);
        if (lent == null) {
            return true;
        }
        try {
            Transactions.rollback(connection, ctx.statements.opening());
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
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
            Jdbc.execute(connection, sql);
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
