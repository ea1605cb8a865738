package dev.tablequeue.broker;

import dev.tablequeue.binding.Event;
import dev.tablequeue.dialect.KeyLocks;
import dev.tablequeue.dialect.ProcessKeys;
import java.sql.Connection;
import java.sql.SQLException;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Advisory: takes and releases a row's key (the service's own lock, or the dialect's {@link KeyLocks}: a session's,
 * or the process's where the database's sessions hold none), and returns a connection that held one: to the pool,
 * or ending its session where a key it took may still be held.
 */
final class AdvisoryKeys {
    private static final Logger LOG = LoggerFactory.getLogger(AdvisoryKeys.class);

    private final SubscriptionContext ctx;
    /** The dialect's locks of the table's keys; null outside the advisory form. */
    private final KeyLocks locks;
    /** The keys the process keeps for this subscription; null where the session holds them. */
    private final ProcessKeys processKeys;

    AdvisoryKeys(SubscriptionContext ctx, KeyLocks locks) {
        this.ctx = ctx;
        this.locks = locks;
        this.processKeys = locks == null ? null : locks.inProcess().orElse(null);
    }

    /** Takes {@code key}'s lock for the session of {@code c} without waiting; true if it did. */
    boolean lock(Connection c, String key) throws SQLException {
        if (ctx.binding.owns(Event.LOCK)) {
            return ctx.binding.own().lock().lock(DSL.using(c, ctx.dialect.sqlDialect()), key);
        }
        return locks.tryLock(c, key);
    }

    /** Releases {@code key}; false where the release was not confirmed (the connection must then end its session). */
    boolean unlock(Connection c, String key) {
        try {
            if (ctx.binding.owns(Event.UNLOCK)) {
                return ctx.binding.own().unlock()
                        .lock(DSL.using(c, ctx.dialect.sqlDialect()), key);
            }
            return locks.unlock(c, key);
        } catch (SQLException | RuntimeException e) {
            if (broken(c)) {
                // the session is gone or going, and the server drops its locks with it
                LOG.debug("the connection that held key {} of {} is broken; its lock ends with its session: {}", key,
                        ctx.queue, e.toString());
            } else {
                LOG.warn("the lock of key {} of {} was not released, so its connection ends its session: {}", key,
                        ctx.queue, e.toString());
            }
            return false;
        }
    }

    /**
     * Whether the process keeps the keys (SQLite): the candidates statement then cannot leave out the keys in
     * work, and the claim leaves them out itself ({@link #held}).
     */
    boolean keptInProcess() {
        return processKeys != null;
    }

    /** How many keys the process holds now (0 where the database keeps the keys). */
    int heldInProcess() {
        return processKeys == null ? 0 : processKeys.held();
    }

    /** Whether the process holds {@code key} now (false where the database keeps the keys). */
    boolean held(String key) {
        return processKeys != null && processKeys.isHeld(key);
    }

    /** Whether {@code c} can no longer reach its session (closed by the pool, or dead on the server). */
    private static boolean broken(Connection c) {
        try {
            return c.isClosed() || !c.isValid(1);
        } catch (SQLException e) {
            return true;
        }
    }

    /** A connection of the pool for a budget permit already taken; the permit is returned where none comes. */
    Connection connection() throws SQLException {
        try {
            return ctx.broker.dataSource.getConnection();
        } catch (SQLException | RuntimeException e) {
            ctx.broker.budget.release();
            throw e;
        }
    }

    /**
     * Returns an advisory connection and its budget permit: to the pool, or evicted where a key it took may
     * still be held.
     */
    void returnConnection(Connection c, boolean evict) {
        try {
            if (evict) {
                Pools.evict(ctx.broker.dataSource, c);
            } else {
                c.close();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("a connection of {} did not return to the pool: {}", ctx.queue, e.toString());
        } finally {
            ctx.broker.budget.release();
        }
    }

    /** Gives an advisory delivery's connection and its budget permit back: once, by its settlement or its release. */
    void giveBack(AdvisoryDelivery d) {
        returnConnection(d.connection, d.evicted);
        d.connectionBack.countDown();
    }
}
