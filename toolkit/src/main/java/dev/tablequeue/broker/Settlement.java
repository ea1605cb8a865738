package dev.tablequeue.broker;

import dev.tablequeue.BrokerClosedException;
import dev.tablequeue.LeaseLostException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Own;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.Binds;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SqliteKeyRegistry;
import dev.tablequeue.dialect.Statement;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a delivery's outcome by its table's form: in the claim's transaction (row lock), on a connection
 * of its own while the row still holds the delivery's lease (lease), or on the connection that holds the
 * row's key, which it then releases (advisory).
 */
final class Settlement {
    private static final Logger LOG = LoggerFactory.getLogger(Settlement.class);

    /** What a release at shutdown did to a delivery still in work. */
    enum Release {
        LOCK_RELEASED,
        CONNECTION_CLOSED,
        KEPT
    }

    private enum Kind {
        ACK,
        DISCARD,
        RETRY,
        RETRY_AFTER,
        DEAD_LETTER
    }

    private record Action(Kind kind, Duration delay) {}

    private final Subscription<?> subscription;
    private final QueueBroker broker;
    private final RoleBinding<?> binding;
    private final Statements statements;
    private final QueueDialect dialect;
    private final AtomicBoolean warnedRetryAfter = new AtomicBoolean();
    /** The keys this subscription holds in the process's registry (SQLite), by key. */
    private final Map<String, SqliteKeyRegistry.Hold> holds = new ConcurrentHashMap<>();

    Settlement(Subscription<?> subscription, Statements statements, QueueDialect dialect) {
        this.subscription = subscription;
        this.broker = subscription.broker;
        this.binding = subscription.binding;
        this.statements = statements;
        this.dialect = dialect;
    }

    /** Writes {@code outcome} for {@code d}; a failure is logged and reported to the listener. */
    void settle(InWork d, Outcome outcome) {
        Action action = resolve(d, outcome);
        d.lock.lock();
        try {
            if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.SETTLED)) {
                throw new BrokerClosedException(d + " was released when the broker closed; its row is back in the"
                        + " queue and the " + describe(outcome) + " was not written");
            }
            switch (binding.form()) {
                case ROW_LOCK -> settleInClaim(d, action);
                case LEASE -> settleLeased(d, action);
                case ADVISORY -> settleLocked(d, action);
            }
            broker.listener.settled(d, outcome);
            if (action.kind() == Kind.DEAD_LETTER) {
                broker.listener.deadLettered(d, destination());
            }
        } catch (Exception e) {
            LOG.warn("the {} of {} was not written: {}", describe(outcome), d, e.toString());
            broker.listener.settlementFailed(d, outcome, e);
        } finally {
            d.lock.unlock();
        }
    }

    private Action resolve(InWork d, Outcome outcome) {
        return switch (outcome) {
            case Outcome.Ack a -> new Action(Kind.ACK, null);
            case Outcome.Drop drop -> new Action(Kind.DISCARD, null);
            case Outcome.Retry r -> spent(d) ? new Action(Kind.DEAD_LETTER, null) : new Action(Kind.RETRY, null);
            case Outcome.RetryAfter r -> {
                if (spent(d)) {
                    yield new Action(Kind.DEAD_LETTER, null);
                }
                if (!binding.has(Role.RETRY_AFTER) && !binding.owns(Event.RETRY_AFTER)) {
                    if (warnedRetryAfter.compareAndSet(false, true)) {
                        LOG.warn("table \"{}\" has no retryAfter column: retryAfter({}) outcomes of {} return the"
                                + " row at once", binding.tableName(), r.delay(), subscription.queue);
                    }
                    yield new Action(Kind.RETRY, null);
                }
                yield new Action(Kind.RETRY_AFTER, r.delay());
            }
        };
    }

    /** Whether this delivery was the last one {@code maxAttempts} allows. */
    private boolean spent(InWork d) {
        int max = subscription.mount.maxAttempts;
        return max > 0 && d.attempt().isPresent() && d.attempt().getAsInt() >= max;
    }

    private String destination() {
        Mount<?> m = subscription.mount;
        return m.deadLetterGroup != null ? m.deadLetterGroup : m.deadLetterTable.getName();
    }

    private Binds binds(InWork d, Action action) {
        Instant now = broker.clock.instant();
        Binds binds = new Binds().id(d.id()).now(now).leaseHeld(d.leaseHeld).group(subscription.queue.group());
        if (action.delay() != null) {
            binds.delay(action.delay()).retryAt(now.plus(action.delay()));
        }
        if (action.kind() == Kind.DEAD_LETTER && subscription.mount.deadLetterGroup != null) {
            binds.destination(subscription.mount.deadLetterGroup);
        }
        return binds;
    }

    /** Row lock: the statements run in the claim's transaction, and the settlement commits it. */
    private void settleInClaim(InWork d, Action action) throws SQLException {
        Connection c = d.connection;
        try {
            boolean wrote = write(c, d, action, false);
            if (wrote) {
                Transactions.commit(c, statements.opening());
            } else {
                Transactions.rollback(c, statements.opening());
            }
        } catch (SQLException | RuntimeException e) {
            Transactions.rollbackQuietly(c, statements.opening());
            throw e;
        }
    }

    /** Lease: a connection of its own; each statement takes effect only while the row holds the token. */
    private void settleLeased(InWork d, Action action) throws SQLException {
        try (Connection c = broker.dataSource.getConnection()) {
            boolean table = action.kind() == Kind.DEAD_LETTER && !statements.deadLetterToTable().isEmpty();
            if (table) {
                c.setAutoCommit(false);
            }
            try {
                write(c, d, action, true);
                if (table) {
                    c.commit();
                }
            } catch (SQLException | RuntimeException e) {
                if (table) {
                    c.rollback();
                }
                throw e;
            } finally {
                if (table) {
                    c.setAutoCommit(true);
                }
            }
        }
    }

    /** Advisory: the statement commits on its own on the delivery's connection; then the key is released. */
    private void settleLocked(InWork d, Action action) throws SQLException {
        Connection c = d.connection;
        try {
            boolean table = action.kind() == Kind.DEAD_LETTER && !statements.deadLetterToTable().isEmpty();
            if (table) {
                c.setAutoCommit(false);
            }
            try {
                write(c, d, action, false);
                if (table) {
                    c.commit();
                }
            } catch (SQLException | RuntimeException e) {
                if (table) {
                    c.rollback();
                }
                throw e;
            } finally {
                if (table) {
                    c.setAutoCommit(true);
                }
            }
        } finally {
            if (!unlock(c, d.advisoryKey)) {
                d.evicted = true;
            }
        }
    }

    /**
     * Runs the statements of {@code action}; false where nothing was written (a retry the rollback or the
     * release performs). With {@code token}, a statement that changed no row means the lease was lost.
     */
    private boolean write(Connection c, InWork d, Action action, boolean token) throws SQLException {
        Binds binds = binds(d, action);
        Event event = switch (action.kind()) {
            case ACK -> Event.ACK;
            case DISCARD -> Event.DISCARD;
            case RETRY -> Event.RETRY;
            case RETRY_AFTER -> Event.RETRY_AFTER;
            case DEAD_LETTER -> Event.DEAD_LETTER;
        };
        if (binding.owns(event)) {
            runOwn(c, d, event, binds, action);
            return true;
        }
        List<Statement> run = switch (action.kind()) {
            case ACK -> List.of(statements.ack());
            case DISCARD -> List.of(statements.discard());
            case RETRY -> statements.retry().map(List::of).orElse(List.of());
            case RETRY_AFTER -> List.of(statements.retryAfter().orElseThrow());
            case DEAD_LETTER -> statements.deadLetterToGroup().map(List::of).orElse(statements.deadLetterToTable());
        };
        for (Statement statement : run) {
            int changed = Jdbc.update(c, statement, binds, dialect);
            if (token && changed == 0) {
                throw new LeaseLostException("the lease of row " + d.id() + " of table \"" + binding.tableName()
                        + "\" (queue " + subscription.queue + ") ran out before its " + statement.purpose()
                        + "; another claim may hold the row, and nothing was changed");
            }
        }
        return !run.isEmpty();
    }

    private void runOwn(Connection c, InWork d, Event event, Binds binds, Action action) {
        DSLContext ctx = DSL.using(c, dialect.sqlDialect());
        Object function = binding.ownEvents().get(event);
        switch (event) {
            case ACK, DISCARD, RETRY -> ((Own.Settle) function).settle(ctx, d.id());
            case RETRY_AFTER -> ((Own.RetryAfter) function).retryAfter(ctx, d.id(),
                    broker.clock.instant().plus(action.delay()));
            case DEAD_LETTER -> ((Own.DeadLetter) function).deadLetter(ctx, d.id(), destination());
            default -> throw new IllegalStateException("not a settlement: " + event);
        }
    }

    // ------------------------------------------------------------------ leases and locks

    /** Moves {@code d}'s lease to {@code until} while the row still holds its token. */
    void extend(InWork d, Instant until) throws SQLException {
        d.lock.lock();
        try {
            if (d.state.get() != InWork.State.IN_WORK || d.leaseHeld == null) {
                return;
            }
            boolean moved;
            try (Connection c = broker.dataSource.getConnection()) {
                if (binding.owns(Event.EXTEND)) {
                    moved = ((Own.Extend) binding.ownEvents().get(Event.EXTEND))
                            .extend(DSL.using(c, dialect.sqlDialect()), d.id(), d.leaseHeld, until);
                } else {
                    Binds binds = new Binds().id(d.id()).leaseHeld(d.leaseHeld).leaseUntil(until);
                    moved = Jdbc.update(c, statements.extend().orElseThrow(), binds, dialect) == 1;
                }
            }
            if (moved) {
                d.leaseHeld = until;
            } else {
                LOG.warn("the lease of {} was lost: another claim may hold its row", d);
            }
        } finally {
            d.lock.unlock();
        }
    }

    /** Takes {@code key}'s lock for the session of {@code c} without waiting; true if it did. */
    boolean lock(Connection c, String key) throws SQLException {
        if (binding.owns(Event.LOCK)) {
            return ((Own.Lock) binding.ownEvents().get(Event.LOCK)).lock(DSL.using(c, dialect.sqlDialect()), key);
        }
        if (statements.lock().isPresent()) {
            return Jdbc.query(c, statements.lock().get(), new Binds().key(key), dialect, Jdbc::firstBoolean);
        }
        var hold = SqliteKeyRegistry.process().tryTake(subscription.database(), key);
        hold.ifPresent(h -> holds.put(key, h));
        return hold.isPresent();
    }

    /** Releases {@code key}; false where the release was not confirmed (the connection must then end its session). */
    boolean unlock(Connection c, String key) {
        try {
            if (binding.owns(Event.UNLOCK)) {
                return ((Own.Lock) binding.ownEvents().get(Event.UNLOCK))
                        .lock(DSL.using(c, dialect.sqlDialect()), key);
            }
            if (statements.unlock().isPresent()) {
                return Jdbc.query(c, statements.unlock().get(), new Binds().key(key), dialect, Jdbc::firstBoolean);
            }
            SqliteKeyRegistry.Hold hold = holds.remove(key);
            return hold != null && hold.release();
        } catch (SQLException | RuntimeException e) {
            LOG.warn("the lock of key {} was not released: {}", key, e.toString());
            return false;
        }
    }

    /**
     * Releases what a delivery still in work at shutdown holds: its key (advisory), its transaction (row
     * lock). A lease delivery keeps its lease and settles as before.
     */
    Release release(InWork d) {
        if (binding.form() == dev.tablequeue.binding.Form.LEASE) {
            return Release.KEPT;
        }
        d.lock.lock();
        try {
            if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.RELEASED)) {
                return Release.KEPT;
            }
            if (binding.form() == dev.tablequeue.binding.Form.ROW_LOCK) {
                Transactions.rollbackQuietly(d.connection, statements.opening());
                return Release.KEPT;
            }
            if (unlock(d.connection, d.advisoryKey)) {
                return Release.LOCK_RELEASED;
            }
            d.evicted = true;
            return Release.CONNECTION_CLOSED;
        } finally {
            d.lock.unlock();
        }
    }

    private static String describe(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Ack a -> "acknowledgement";
            case Outcome.Drop d -> "drop";
            case Outcome.Retry r -> "retry";
            case Outcome.RetryAfter r -> "retry after " + r.delay();
        };
    }
}
