package dev.tablequeue.broker;

import dev.tablequeue.BatchRolledBackException;
import dev.tablequeue.BrokerClosedException;
import dev.tablequeue.LeaseLostException;
import dev.tablequeue.OutcomeUnknownException;
import dev.tablequeue.SettlementException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Own;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.Binds;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SqliteKeyRegistry;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.StatementBinder;
import dev.tablequeue.dialect.SubscriptionStatements;
import dev.tablequeue.dialect.TransactionOpening;
import java.sql.BatchUpdateException;
import java.sql.PreparedStatement;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes deliveries' outcomes by their table's form: a row lock claim's outcomes together in the claim's
 * transaction, which then commits; lease outcomes many at a time, in one transaction of their own, each
 * taking effect only while its row still holds the delivery's lease; an advisory outcome on the connection
 * that holds the row's key, which it then releases.
 *
 * <p>Outcomes written together send each statement once as a JDBC batch: one round trip and one commit for
 * the lot, with the statements the dialect built and the server prepared when the subscription opened.
 */
final class Settlement {
    private static final Logger LOG = LoggerFactory.getLogger(Settlement.class);

    /** What a release at shutdown did to a delivery still in work. */
    enum Release {
        /** Its advisory key, or its row's lock (a row lock claim rolled back), was released. */
        LOCK_RELEASED,
        /** The release was not confirmed: the connection that held the lock ends its session. */
        CONNECTION_CLOSED,
        /** Nothing: a lease, a settlement already under way, or a claim already counted. */
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

    /**
     * A delivery whose handler (or failure policy) has answered, and the outcome to write; none where the
     * handler failed with an {@link Error}, whose row is then written nothing and returns by its form's rule.
     */
    record Pending(InWork d, Outcome outcome) {
        static Pending nothing(InWork d) {
            return new Pending(d, null);
        }

        boolean writesNothing() {
            return outcome == null;
        }
    }

    /** An outcome resolved to what it writes: the service's own event, or the dialect's statements in order. */
    private record Plan(Pending pending, Action action, Event event, Binds binds, List<Statement> run) {
        InWork d() {
            return pending.d();
        }
    }

    private final Subscription<?> subscription;
    private final QueueBroker broker;
    private final RoleBinding<?> binding;
    private final SubscriptionStatements statements;
    private final QueueDialect dialect;
    private final AtomicBoolean warnedRetryAfter = new AtomicBoolean();
    /** The keys this subscription holds in the process's registry (SQLite), by key. */
    private final Map<String, SqliteKeyRegistry.Hold> holds = new ConcurrentHashMap<>();

    Settlement(Subscription<?> subscription, SubscriptionStatements statements, QueueDialect dialect) {
        this.subscription = subscription;
        this.broker = subscription.broker;
        this.binding = subscription.binding;
        this.statements = statements;
        this.dialect = dialect;
    }

    /**
     * Writes one advisory delivery's outcome on the connection that holds its key (nothing for
     * {@link Pending#nothing}), then releases the key. A failure is logged and reported to the listener.
     *
     * @return whether this settlement took the delivery, and so returns its connection; false where the
     *     delivery was released at shutdown, which returned the connection then
     */
    boolean settle(Pending p) {
        InWork d = p.d();
        d.lock.lock();
        try {
            if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.SETTLED)) {
                failed(p, closed(d, p.outcome()));
                return false;
            }
            Plan written = null;
            try {
                if (!p.writesNothing()) {
                    Plan plan = plan(p);
                    writeLocked(plan);
                    written = plan;
                }
            } catch (Exception e) {
                failed(p, e);
            } finally {
                if (!unlock(d.connection, d.advisoryKey)) {
                    d.evicted = true;
                }
            }
            // Reported (and the claim woken) once the key is free: a claim woken while the key is still held
            // would skip the row it was woken for and sleep a whole poll interval.
            if (written != null) {
                succeeded(written);
            }
            return true;
        } finally {
            d.lock.unlock();
        }
    }

    /**
     * Writes the outcomes of a row lock claim's deliveries in the claim's transaction and commits it; where a
     * statement fails the transaction rolls back, every row of the claim returns to the queue as it was, and
     * each outcome fails: the one whose statement failed with its cause, the others with
     * {@link BatchRolledBackException}. Where the connection fails during the commit, each outcome is
     * reported as unknown ({@link OutcomeUnknownException}).
     */
    void settleClaim(ClaimGroup group, List<Pending> outcomes) {
        group.lock.lock();
        try {
            if (group.state() != ClaimGroup.State.OPEN) {
                for (Pending p : outcomes) {
                    failed(p, closed(p.d(), p.outcome()));
                }
                return;
            }
            List<Plan> plans = new ArrayList<>(outcomes.size());
            for (Pending p : outcomes) {
                p.d().state.set(InWork.State.SETTLED);
                if (!p.writesNothing()) {
                    // a row written nothing stays as it was, and returns when the transaction ends
                    plans.add(plan(p));
                }
            }
            Connection c = group.connection;
            Map<Plan, Exception> lost;
            boolean committing = false;
            try {
                lost = writeAll(c, plans, false);
                committing = true;
                Transactions.commit(c, statements.opening());
            } catch (SettlementFailure e) {
                Transactions.rollbackQuietly(c, statements.opening());
                group.end(ClaimGroup.State.RELEASED);
                subscription.returned(Duration.ZERO);
                rolledBack(plans, e.plan, e.getCause());
                return;
            } catch (SQLException | RuntimeException e) {
                Transactions.rollbackQuietly(c, statements.opening());
                // a commit cut off with its connection may have taken effect: no claim to have rolled it back
                boolean unknown = committing && Connections.lost(e, c);
                group.end(ClaimGroup.State.RELEASED);
                subscription.returned(Duration.ZERO);
                if (unknown) {
                    plans.forEach(plan -> unknown(plan.pending(), statementFailed(List.of(plan), "commit", null, e)));
                } else {
                    rolledBack(plans, null, e instanceof SQLException ? statementFailed(plans, "commit", null, e) : e);
                }
                return;
            }
            group.end(ClaimGroup.State.SETTLED);
            report(plans, lost);
        } finally {
            group.lock.unlock();
            forget(outcomes);
        }
    }

    private void rolledBack(List<Plan> plans, Plan culprit, Throwable cause) {
        List<Object> ids = plans.stream().map(p -> p.d().id()).toList();
        for (Plan plan : plans) {
            if (plans.size() == 1 || plan == culprit) {
                failed(plan.pending(), cause);
            } else {
                failed(plan.pending(), new BatchRolledBackException("rows " + ids + " of table \""
                        + binding.tableName() + "\" (queue " + subscription.queue + ") shared one claim's transaction,"
                        + " and " + (culprit != null ? "the " + describe(culprit.pending().outcome()) + " of row "
                        + culprit.d().id() : "a settlement") + " failed and rolled it back: every one of these rows"
                        + " is back in the queue as it was before the claim, and this " + describe(plan.pending()
                        .outcome()) + " was not written", cause));
            }
        }
    }

    /**
     * Writes lease outcomes together in one transaction; each takes effect only while its row still holds
     * the delivery's lease, and one whose lease ran out fails with {@link LeaseLostException} while the others
     * are written. Where a statement fails, the transaction rolls back and each outcome is written again on
     * its own, so one bad row costs only its own settlement.
     */
    void settleLeased(List<Pending> outcomes) {
        List<InWork> locked = new ArrayList<>(outcomes.size());
        List<Plan> plans = new ArrayList<>(outcomes.size());
        ReentrantLock turn = subscription.writeTurn();
        if (turn != null) {
            turn.lock();
        }
        try {
            for (Pending p : outcomes) {
                InWork d = p.d();
                d.lock.lock();
                locked.add(d);
                if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.SETTLED)) {
                    failed(p, closed(d, p.outcome()));
                    continue;
                }
                if (!p.writesNothing()) {
                    // a row written nothing keeps its lease, which runs out: the keeper no longer extends it
                    plans.add(plan(p));
                }
            }
            if (plans.size() == 1) {
                settleLeasedAlone(plans.get(0), false);
            } else if (!plans.isEmpty()) {
                settleLeasedTogether(plans);
            }
        } finally {
            for (InWork d : locked) {
                d.lock.unlock();
            }
            if (turn != null) {
                turn.unlock();
            }
            forget(outcomes);
        }
    }

    /**
     * The opening of a lease settlement's transaction: the binding's where it is explicit (SQLite's
     * {@code BEGIN} mode), the database's default level elsewhere, the same for a batch and for one outcome.
     */
    private TransactionOpening leaseOpening() {
        return statements.opening().explicit() ? statements.opening() : TransactionOpening.DEFAULT;
    }

    private void settleLeasedTogether(List<Plan> plans) {
        Map<Plan, Exception> lost;
        boolean committing = false;
        try (Connection c = broker.dataSource.getConnection()) {
            TransactionOpening opening = leaseOpening();
            Transactions.begin(c, opening);
            try {
                lost = writeAll(c, plans, true);
                committing = true;
                Transactions.commit(c, opening);
            } catch (Exception e) {
                Transactions.rollbackQuietly(c, opening);
                committing = committing && Connections.lost(e, c);
                throw e;
            }
        } catch (Exception e) {
            LOG.debug("a batch of {} settlements of {} failed; writing each on its own: {}", plans.size(),
                    subscription.queue, e.toString());
            for (Plan plan : plans) {
                // a commit the connection's failure interrupted may have taken effect
                settleLeasedAlone(plan, committing);
            }
            return;
        }
        report(plans, lost);
    }

    /** The first pause before a lease outcome is written again on another connection; it doubles up to a second. */
    private static final long FIRST_RETRY_PAUSE_MILLIS = 50;

    /**
     * Lease, one outcome, written by {@link #writeLeasedAlone}. Where its connection fails (the server killed
     * the session, the network dropped) the outcome is written again on another one while its lease holds:
     * the lease makes that safe, since each statement takes effect only while the row holds the delivery's
     * lease. An outcome whose commit a failure left unknown, and that no later attempt settles, is reported
     * as unknown, not as failed.
     *
     * @param mayHaveCommitted whether an earlier attempt (a batch) failed while its commit was under way
     */
    private void settleLeasedAlone(Plan plan, boolean mayHaveCommitted) {
        long pause = FIRST_RETRY_PAUSE_MILLIS;
        while (true) {
            try {
                writeLeasedAlone(plan);
                succeeded(plan);
                return;
            } catch (LostConnection e) {
                mayHaveCommitted |= e.atCommit;
                if (!broker.clock.instant().plusMillis(pause).isBefore(plan.d().leaseHeld) || !pause(pause)) {
                    notWritten(plan, e.getCause(), mayHaveCommitted);
                    return;
                }
                LOG.info("the connection writing the {} of {} failed, writing it again on another while its lease"
                        + " holds: {}", describe(plan.pending().outcome()), plan.d(), reason(e.getCause()));
                pause = Math.min(pause * 2, 1_000);
            } catch (Exception e) {
                notWritten(plan, e, mayHaveCommitted);
                return;
            }
        }
    }

    /** Waits {@code millis} before an outcome is written again; false where the thread was interrupted. */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Reports an outcome that was not written: as unknown where an attempt may have committed it. */
    private void notWritten(Plan plan, Throwable e, boolean mayHaveCommitted) {
        if (mayHaveCommitted) {
            unknown(plan.pending(), e);
        } else {
            failed(plan.pending(), e);
        }
    }

    /** A failed connection, and whether the commit of what it wrote was under way (so may have happened). */
    private static final class LostConnection extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean atCommit;

        LostConnection(Throwable cause, boolean atCommit) {
            super(cause);
            this.atCommit = atCommit;
        }
    }

    /**
     * Lease, one outcome: a connection of its own, in auto-commit where it is one statement, else (a dead letter
     * into a table, the service's own event) in a transaction, so its statements take effect together.
     *
     * @throws LostConnection where the connection failed, saying whether the commit was under way
     */
    private void writeLeasedAlone(Plan plan) throws SQLException, LostConnection {
        boolean committing = false;
        try (Connection c = broker.dataSource.getConnection()) {
            boolean tx = plan.event() != null || plan.run().size() > 1;
            TransactionOpening opening = leaseOpening();
            if (tx) {
                Transactions.begin(c, opening);
            }
            try {
                committing = !tx;
                write(c, plan, true);
                if (tx) {
                    committing = true;
                    Transactions.commit(c, opening);
                }
            } catch (SQLException | RuntimeException e) {
                if (tx) {
                    Transactions.rollbackQuietly(c, opening);
                }
                if (!(e instanceof LeaseLostException) && Connections.lost(e, c)) {
                    throw new LostConnection(e, committing);
                }
                throw e;
            }
        } catch (SQLException e) {
            // no connection came (the pool timed out, the server is restarting): nothing was sent
            if (Connections.lost(e, null)) {
                throw new LostConnection(e, false);
            }
            throw e;
        }
    }

    /**
     * Advisory: writes the outcome on the delivery's connection, one statement in auto-commit, several (or
     * the service's own event) in a transaction opened as the binding declares. Where the rollback of a
     * failed transaction fails as well, the failure that caused it is the one reported (the rollback's is
     * kept as suppressed) and the connection ends its session rather than go back to the pool.
     */
    private void writeLocked(Plan plan) throws SQLException {
        InWork d = plan.d();
        Connection c = d.connection;
        boolean tx = plan.event() != null || plan.run().size() > 1;
        if (!tx) {
            write(c, plan, false);
            return;
        }
        TransactionOpening opening = statements.opening();
        Transactions.begin(c, opening);
        try {
            write(c, plan, false);
            Transactions.commit(c, opening);
        } catch (SQLException | RuntimeException e) {
            try {
                Transactions.rollback(c, opening);
            } catch (SQLException | RuntimeException rollback) {
                e.addSuppressed(rollback);
                d.evicted = true;
            }
            throw e;
        }
    }

    private BrokerClosedException closed(InWork d, Outcome outcome) {
        return new BrokerClosedException(d + " was released when the broker closed; its row is back in the"
                + " queue and the " + describe(outcome) + " was not written");
    }

    private void succeeded(Plan plan) {
        InWork d = plan.d();
        switch (plan.action().kind()) {
            case RETRY -> subscription.returned(Duration.ZERO);
            case RETRY_AFTER -> subscription.returned(plan.action().delay());
            default -> { }
        }
        if (plan.action().kind() == Kind.DEAD_LETTER) {
            broker.listener.deadLettered(d, destination());
        }
        broker.listener.settled(d, plan.pending().outcome());
    }

    private void failed(Pending p, Throwable cause) {
        if (p.writesNothing()) {
            // no outcome was to be written, so none failed
            return;
        }
        Throwable e = cause instanceof TableQueueException || cause instanceof Error ? cause
                : statementFailed(p, "settlement", null, cause);
        if (e instanceof SettlementException) {
            LOG.warn("{}", e.getMessage());
        } else {
            LOG.warn("the {} of {} was not written: {}", describe(p.outcome()), p.d(), e.toString());
        }
        if (e instanceof LeaseLostException) {
            reportLeaseLost(p.d());
        }
        broker.listener.settlementFailed(p.d(), p.outcome(), e);
    }

    /** Tells the listener, once per delivery, that its lease was lost. */
    private void reportLeaseLost(InWork d) {
        if (d.leaseLostReported.compareAndSet(false, true)) {
            broker.listener.leaseLost(d);
        }
    }

    private void unknown(Pending p, Throwable cause) {
        OutcomeUnknownException e = new OutcomeUnknownException("the " + describe(p.outcome()) + " of row "
                + p.d().id() + " of table \"" + binding.tableName() + "\" (queue " + subscription.queue + ") may or"
                + " may not have been written: the connection failed while its commit was under way, and no later"
                + " attempt settled it: " + reason(cause), binding.tableName(), p.d().id(), cause);
        LOG.warn("{}", e.getMessage());
        broker.listener.settlementUnknown(p.d(), p.outcome(), e);
    }

    private void report(List<Plan> plans, Map<Plan, Exception> lost) {
        for (Plan plan : plans) {
            Exception e = lost.get(plan);
            if (e == null) {
                succeeded(plan);
            } else {
                failed(plan.pending(), e);
            }
        }
    }

    private void forget(List<Pending> outcomes) {
        for (Pending p : outcomes) {
            subscription.inWork.remove(p.d());
        }
    }

    private Plan plan(Pending p) {
        InWork d = p.d();
        Action action = resolve(d, p.outcome());
        Binds binds = binds(d, action);
        Event event = switch (action.kind()) {
            case ACK -> Event.ACK;
            case DISCARD -> Event.DISCARD;
            case RETRY -> Event.RETRY;
            case RETRY_AFTER -> Event.RETRY_AFTER;
            case DEAD_LETTER -> Event.DEAD_LETTER;
        };
        if (binding.owns(event)) {
            return new Plan(p, action, event, binds, List.of());
        }
        List<Statement> run = switch (action.kind()) {
            case ACK -> List.of(statements.ack());
            case DISCARD -> List.of(statements.discard());
            case RETRY -> statements.retry().map(List::of).orElse(List.of());
            case RETRY_AFTER -> List.of(statements.retryAfter().orElseThrow());
            case DEAD_LETTER -> statements.deadLetterToGroup().map(List::of).orElse(statements.deadLetterToTable());
        };
        return new Plan(p, action, null, binds, run);
    }

    private Action resolve(InWork d, Outcome outcome) {
        return switch (outcome) {
            case Outcome.Ack a -> new Action(Kind.ACK, null);
            case Outcome.Drop drop -> new Action(Kind.DISCARD, null);
            case Outcome.DeadLetter dead -> new Action(deadLetterDeclared() ? Kind.DEAD_LETTER : Kind.DISCARD, null);
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
    boolean spent(InWork d) {
        int max = subscription.mount.maxAttempts;
        return max > 0 && d.attempt().isPresent() && d.attempt().getAsInt() >= max;
    }

    private boolean deadLetterDeclared() {
        Mount<?> m = subscription.mount;
        return m.deadLetterGroup != null || m.deadLetterTable != null;
    }

    /** What {@code outcome} does to {@code d}'s row, as a log line says it: "is dropped (deleted)", say. */
    String fate(InWork d, Outcome outcome) {
        String dropped = binding.has(Role.PROCESSED_AT) ? "is dropped (marked processed)" : "is dropped (deleted)";
        String moved = "moves to the dead letter \"" + (deadLetterDeclared() ? destination() : "") + "\"";
        return switch (outcome) {
            case Outcome.Ack a -> "is acknowledged";
            case Outcome.Drop drop -> dropped;
            case Outcome.DeadLetter dead -> deadLetterDeclared() ? moved : dropped + ": no dead letter is declared";
            case Outcome.Retry r -> spent(d) ? moved + ": its attempts are spent" : "is retried";
            case Outcome.RetryAfter r -> spent(d) ? moved + ": its attempts are spent" : "is retried after " + r.delay();
        };
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
        Throwable failure = d.failure;
        if (failure != null && binding.has(Role.LAST_ERROR)) {
            binds.lastError(LastError.of(failure, binding.lastErrorLength()));
        }
        return binds;
    }

    /**
     * Runs one outcome's statements (or the service's own event). With {@code token}, a statement that
     * changed no row means the lease was lost.
     */
    private void write(Connection c, Plan plan, boolean token) throws SQLException {
        if (plan.event() != null) {
            runOwnNamed(c, plan);
            return;
        }
        for (Statement statement : plan.run()) {
            int changed;
            try {
                changed = Jdbc.update(c, statement, plan.binds(), dialect);
            } catch (SQLException e) {
                throw statementFailed(List.of(plan), statement.purpose(), statement.sql(), e);
            }
            if (token && changed == 0) {
                throw leaseLost(plan, statement);
            }
        }
    }

    /** A failed statement of a batch, and the outcome whose statement it was (where the driver says). */
    private static final class SettlementFailure extends Exception {
        private static final long serialVersionUID = 1L;
        final transient Plan plan;

        SettlementFailure(Plan plan, Throwable cause) {
            super(cause);
            this.plan = plan;
        }
    }

    /**
     * Writes many outcomes on {@code c} in its open transaction: the service's own events one by one, then
     * the statements stage by stage (a dead letter into a table copies every row before it deletes any),
     * each distinct statement sent once as a JDBC batch. Returns the outcomes whose lease was lost (with
     * {@code token}); they changed nothing.
     */
    private Map<Plan, Exception> writeAll(Connection c, List<Plan> plans, boolean token)
            throws SQLException, SettlementFailure {
        Map<Plan, Exception> lost = new IdentityHashMap<>();
        int stages = 0;
        for (Plan plan : plans) {
            if (plan.event() != null) {
                try {
                    runOwnNamed(c, plan);
                } catch (RuntimeException e) {
                    throw new SettlementFailure(plan, e);
                }
            }
            stages = Math.max(stages, plan.run().size());
        }
        for (int stage = 0; stage < stages; stage++) {
            Map<Statement, List<Plan>> byStatement = new LinkedHashMap<>();
            for (Plan plan : plans) {
                if (plan.run().size() > stage && !lost.containsKey(plan)) {
                    byStatement.computeIfAbsent(plan.run().get(stage), s -> new ArrayList<>()).add(plan);
                }
            }
            for (Map.Entry<Statement, List<Plan>> e : byStatement.entrySet()) {
                Statement statement = e.getKey();
                List<Plan> batch = e.getValue();
                int[] changed = execute(c, statement, batch);
                for (int i = 0; i < batch.size(); i++) {
                    if (token && changed[i] == 0) {
                        lost.put(batch.get(i), leaseLost(batch.get(i), statement));
                    }
                }
            }
        }
        return lost;
    }

    /** Runs {@code statement} once per plan, as one JDBC batch where there are several; rows changed by each. */
    private int[] execute(Connection c, Statement statement, List<Plan> batch) throws SQLException, SettlementFailure {
        if (batch.size() == 1) {
            try {
                return new int[] {Jdbc.update(c, statement, batch.get(0).binds(), dialect)};
            } catch (SQLException e) {
                throw new SettlementFailure(batch.get(0),
                        statementFailed(batch, statement.purpose(), statement.sql(), e));
            }
        }
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            for (Plan plan : batch) {
                StatementBinder.bind(ps, statement, plan.binds(), dialect);
                ps.addBatch();
            }
            try {
                return ps.executeBatch();
            } catch (BatchUpdateException e) {
                int[] done = e.getUpdateCounts();
                Plan culprit = done != null && done.length < batch.size() ? batch.get(done.length) : null;
                throw new SettlementFailure(culprit, statementFailed(culprit != null ? List.of(culprit) : batch,
                        statement.purpose(), statement.sql(), e));
            }
        }
    }

    /** Runs the service's own event of {@code plan}; its failure names the outcome, the row and the event. */
    private void runOwnNamed(Connection c, Plan plan) {
        try {
            runOwn(c, plan.d(), plan.event(), plan.binds(), plan.action());
        } catch (TableQueueException e) {
            throw e;
        } catch (RuntimeException e) {
            throw statementFailed(List.of(plan), "own " + plan.event().name().toLowerCase().replace('_', ' '), null, e);
        }
    }

    /**
     * The failure of a statement that wrote {@code plans}' outcomes: naming the outcome, the row and the table
     * where it wrote one, the rows where it wrote several, and the statement with its SQL.
     */
    private SettlementException statementFailed(List<Plan> plans, String statement, String sql, Throwable cause) {
        if (plans.size() == 1) {
            return statementFailed(plans.get(0).pending(), statement, sql, cause);
        }
        List<Object> ids = plans.stream().map(p -> p.d().id()).toList();
        return new SettlementException("the outcomes of rows " + ids + " of table \"" + binding.tableName()
                + "\" (queue " + subscription.queue + ") were not written: " + failure(statement, sql, cause),
                binding.tableName(), null, statement, sql, cause);
    }

    private SettlementException statementFailed(Pending p, String statement, String sql, Throwable cause) {
        return new SettlementException("the " + describe(p.outcome()) + " of row " + p.d().id() + " of table \""
                + binding.tableName() + "\" (queue " + subscription.queue + ") was not written: "
                + failure(statement, sql, cause), binding.tableName(), p.d().id(), statement, sql, cause);
    }

    /** Why {@code cause} failed: the statement and the driver's words where a settlement statement failed. */
    private static String reason(Throwable cause) {
        return cause instanceof SettlementException s ? failure(s.statement(), s.sql(), s.getCause())
                : cause.toString();
    }

    private static String failure(String statement, String sql, Throwable cause) {
        return "its " + statement + (sql != null ? " statement" : "") + " failed: " + cause.getMessage()
                + (sql != null ? " [SQL: " + sql + "]" : "");
    }

    private LeaseLostException leaseLost(Plan plan, Statement statement) {
        return new LeaseLostException("the lease of row " + plan.d().id() + " of table \"" + binding.tableName()
                + "\" (queue " + subscription.queue + ") ran out before its " + statement.purpose()
                + "; another claim may hold the row, and nothing was changed");
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

    /**
     * Moves {@code d}'s lease to {@code until} while the row still holds its token. Where the connection fails
     * (the server killed the session, the network dropped), the extension is written again on another one
     * while the lease holds, rather than at the keeper's next run, which may come after the lease ran out. An
     * attempt cut off with its connection may have been written all the same, moving the row to its expiry:
     * the later attempts take that one for the delivery's token as well, so the delivery keeps the lease its
     * own extension moved.
     */
    void extend(InWork d, Instant until) throws SQLException {
        d.lock.lock();
        try {
            if (d.state.get() != InWork.State.IN_WORK || d.leaseHeld == null) {
                return;
            }
            List<Instant> mayHold = new ArrayList<>(2);
            Instant next = until;
            long pause = FIRST_RETRY_PAUSE_MILLIS;
            while (true) {
                try {
                    if (moveLease(d, d.leaseHeld, next) || movedFromOneItMayHold(d, mayHold, next)) {
                        d.leaseHeld = next;
                    } else {
                        LOG.warn("the lease of {} was lost: another claim may hold its row", d);
                        reportLeaseLost(d);
                    }
                    return;
                } catch (LostConnection e) {
                    if (e.atCommit) {
                        mayHold.add(next);
                    }
                    if (!broker.clock.instant().plusMillis(pause).isBefore(d.leaseHeld) || !pause(pause)) {
                        throw e.getCause() instanceof SQLException sql ? sql
                                : new SQLException("the lease extension's connection failed", e.getCause());
                    }
                    LOG.info("the connection extending the lease of {} failed, extending it again on another while"
                            + " the lease holds: {}", d, reason(e.getCause()));
                    pause = Math.min(pause * 2, 1_000);
                    next = Leases.expiry(broker.clock.instant(), subscription.lease());
                }
            }
        } finally {
            d.lock.unlock();
        }
    }

    /** Moves the lease from a token an earlier, cut off, extension may have written; true where one held. */
    private boolean movedFromOneItMayHold(InWork d, List<Instant> mayHold, Instant next)
            throws SQLException, LostConnection {
        for (Instant held : mayHold) {
            if (moveLease(d, held, next)) {
                return true;
            }
        }
        return false;
    }

    /**
     * One extension's statement, on a connection of its own, in auto-commit: true where the row held
     * {@code held}.
     *
     * @throws LostConnection where the connection failed; "at commit" where the statement had been sent
     */
    private boolean moveLease(InWork d, Instant held, Instant until) throws SQLException, LostConnection {
        try (Connection c = broker.dataSource.getConnection()) {
            try {
                if (binding.owns(Event.EXTEND)) {
                    return ((Own.Extend) binding.ownEvents().get(Event.EXTEND))
                            .extend(DSL.using(c, dialect.sqlDialect()), d.id(), held, until);
                }
                Binds binds = new Binds().id(d.id()).leaseHeld(held).leaseUntil(until);
                return Jdbc.update(c, statements.extend().orElseThrow(), binds, dialect) == 1;
            } catch (SQLException | RuntimeException e) {
                if (Connections.lost(e, c)) {
                    throw new LostConnection(e, true);
                }
                throw e;
            }
        } catch (SQLException e) {
            // no connection came (the pool timed out, the server is restarting): nothing was sent
            if (Connections.lost(e, null)) {
                throw new LostConnection(e, false);
            }
            throw e;
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
            if (broken(c)) {
                // the session is gone or going, and the server drops its locks with it
                LOG.debug("the connection that held key {} of {} is broken; its lock ends with its session: {}", key,
                        subscription.queue, e.toString());
            } else {
                LOG.warn("the lock of key {} of {} was not released, so its connection ends its session: {}", key,
                        subscription.queue, e.toString());
            }
            return false;
        }
    }

    /** Whether {@code c} can no longer reach its session (closed by the pool, or dead on the server). */
    private static boolean broken(Connection c) {
        try {
            return c.isClosed() || !c.isValid(1);
        } catch (SQLException e) {
            return true;
        }
    }

    /**
     * Releases what a delivery still in work at shutdown holds: its key (advisory; the caller then gives its
     * connection back, evicted where the release was not confirmed), or its claim's transaction (row lock:
     * rolled back, and its connection closed, at the first of its rows). A lease delivery keeps its lease and
     * settles as before.
     */
    Release release(InWork d) {
        if (binding.form() == dev.tablequeue.binding.Form.LEASE) {
            return Release.KEPT;
        }
        if (d.group != null) {
            return releaseGroup(d.group);
        }
        d.lock.lock();
        try {
            if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.RELEASED)) {
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

    /**
     * Rolls a row lock claim's transaction back, unless its settlement has begun, so its rows return at once:
     * each row's lock counts as released; where the rollback fails, the connection ends its session instead
     * and counts once as closed.
     */
    private Release releaseGroup(ClaimGroup group) {
        group.lock.lock();
        try {
            if (group.state() == ClaimGroup.State.OPEN) {
                try {
                    Transactions.rollback(group.connection, statements.opening());
                    group.end(ClaimGroup.State.RELEASED);
                    group.releasedAtClose = true;
                    return Release.LOCK_RELEASED;
                } catch (SQLException | RuntimeException e) {
                    LOG.debug("the rollback of a claim of {} failed; its connection ends its session: {}",
                            subscription.queue, e.toString());
                    group.end(ClaimGroup.State.RELEASED, broker.dataSource);
                    return Release.CONNECTION_CLOSED;
                }
            }
            return group.releasedAtClose ? Release.LOCK_RELEASED : Release.KEPT;
        } finally {
            group.lock.unlock();
        }
    }

    private static String describe(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Ack a -> "acknowledgement";
            case Outcome.Drop d -> "drop";
            case Outcome.DeadLetter d -> "dead letter";
            case Outcome.Retry r -> "retry";
            case Outcome.RetryAfter r -> "retry after " + r.delay();
        };
    }
}
