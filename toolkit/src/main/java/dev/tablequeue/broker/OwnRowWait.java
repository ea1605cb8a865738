package dev.tablequeue.broker;

import dev.tablequeue.dialect.LockWait;
import dev.tablequeue.internal.Jdbc;
import java.sql.SQLException;
import java.time.Duration;
import org.jooq.DSLContext;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.exception.DataAccessException;

/**
 * A row lock subscription's {@code delivery.db()}: the broker's context, but a statement on the
 * subscription's own table waits a bounded time for a row lock. The row may be the delivery's own, which its
 * claim holds locked until the delivery settles, so such a statement would otherwise wait for ever; past the
 * bound it fails with an error that says to write that row through {@code delivery.tx()}. Statements on
 * other tables run as on the broker's context, without a round trip more.
 */
final class OwnRowWait implements ExecuteListener {
    private static final long serialVersionUID = 1L;
    private static final String BOUNDED = "tablequeue.lockWaitBounded";

    private final transient LockWait wait;
    private final String table;
    private final String queue;
    private final Duration bound;

    private OwnRowWait(LockWait wait, String table, String queue, Duration bound) {
        this.wait = wait;
        this.table = table;
        this.queue = queue;
        this.bound = bound;
    }

    /** {@code ctx}'s {@code db()}, for a row lock subscription: its lock waits bounded as its claims say. */
    static DSLContext of(SubscriptionContext ctx, Duration bound) {
        LockWait wait = ctx.statements.claims().lockWait(bound);
        return ctx.broker.db.configuration()
                .deriveAppending(new OwnRowWait(wait, ctx.binding.table().getName(), ctx.queue.toString(), bound))
                .dsl();
    }

    @Override
    public void executeStart(ExecuteContext ctx) {
        if (ctx.sql() == null || !ctx.sql().contains(table)) {
            return;
        }
        try {
            Jdbc.execute(ctx.connection(), wait.bound());
            ctx.data(BOUNDED, Boolean.TRUE);
        } catch (SQLException e) {
            throw new DataAccessException("the bound of a row lock wait (" + wait.bound() + ") failed: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void executeEnd(ExecuteContext ctx) {
        restore(ctx);
    }

    @Override
    public void exception(ExecuteContext ctx) {
        boolean bounded = restore(ctx);
        SQLException e = ctx.sqlException();
        if (e != null && bounded && wait.timedOut().test(e)) {
            ctx.exception(new DataAccessException("a statement through delivery.db() on table \"" + table + "\" (queue "
                    + queue + ") waited " + bound.toSeconds() + " s for a row lock and gave up: in the row lock form"
                    + " the delivery's own row is locked by its claim until the delivery settles, so db(), which"
                    + " commits on a connection of its own, waits for it; write the delivery's own row through"
                    + " delivery.tx() on a subscription mounted with transactional(), or let the outcome write it"
                    + " [SQL: " + ctx.sql() + "]", e));
        }
    }

    /**
     * Restores the session's own wait, on the statement's connection before it goes back to the pool; true
     * where this statement had bounded it.
     */
    private boolean restore(ExecuteContext ctx) {
        if (ctx.data(BOUNDED) == null || ctx.data(BOUNDED) == Boolean.FALSE) {
            return ctx.data(BOUNDED) != null;
        }
        ctx.data(BOUNDED, Boolean.FALSE);
        try {
            Jdbc.execute(ctx.connection(), wait.restore());
        } catch (SQLException | RuntimeException ignored) {
            // a broken connection is dropped by its pool; in a transaction that rolls back, so does the bound
        }
        return true;
    }
}
