package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.OwnStatements;
import dev.tablequeue.dialect.QueueSettlements;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.transport.SettlementJoin;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Runs planned outcomes on a connection, for every completer: one outcome (or the service's own event), or
 * many outcomes together, through the table's settlements ({@link QueueSettlements}), and reports what
 * failed by outcome and row. Where and in which transaction they run is the completer's.
 */
final class Settlement {

    /** What a release at shutdown did to a delivery still in work. */
    enum Release {
        /** Its advisory key, or its row's lock (a row lock claim rolled back), was released. */
        LOCK_RELEASED,
        /** The release was not confirmed: the connection that held the lock ends its session. */
        CONNECTION_CLOSED,
        /** Nothing: a lease, a settlement already under way, or a claim already counted. */
        KEPT
    }

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

    /** A pending outcome and its plan. */
    record Write(Pending pending, SettlementPlanner.Plan plan) {
        InWork d() {
            return pending.d();
        }
    }

    final SubscriptionContext ctx;
    final SettlementReports reports;
    private final QueueSettlements settlements;
    /** The handler middlewares whose statements join each settlement, where its deliveries join ({@link InWork#joinsSettlement}). */
    private final List<SettlementJoin> joins;

    /**
     * The settlement of {@code ctx}'s subscription; its many-row statements are prepared with the
     * subscription's others when it opens ({@link StartRules}).
     */
    Settlement(SubscriptionContext ctx, Connection opening) {
        this.ctx = ctx;
        this.reports = new SettlementReports(ctx);
        this.settlements = ctx.statements.settlements();
        // the advisory form's completer writes on the key's connection and joins none of them
        this.joins = ctx.broker.middlewares.joins();
    }

    /** Whether handler middlewares write in this subscription's settlement transactions. */
    boolean joined() {
        return !joins.isEmpty();
    }

    /**
     * Runs the joined middlewares' statements for {@code settled} on {@code c}, in the transaction that writes
     * their outcomes, before its commit; a failure fails them all, as a statement of the settlement's own.
     */
    void joins(Connection c, List<Pending> settled) throws BatchFailure {
        if (joins.isEmpty() || settled.isEmpty()) {
            return;
        }
        List<SettlementJoin.Settled> all = new ArrayList<>(settled.size());
        for (Pending p : settled) {
            all.add(new SettlementJoin.Settled(p.d(), p.outcome()));
        }
        for (SettlementJoin join : joins) {
            try {
                join.settling(c, all);
            } catch (SQLException | RuntimeException e) {
                List<Write> named = settled.stream().filter(p -> !p.writesNothing()).map(this::plan).toList();
                throw new BatchFailure(List.of(), named.isEmpty() ? e : reports.statementFailed(named,
                        "settlement statements of " + join.getClass().getSimpleName(), null, e));
            }
        }
    }

    /** Tells the joined middlewares that the transaction that wrote {@code settled}'s outcomes has ended. */
    void ended(List<Pending> settled) {
        if (joins.isEmpty() || settled.isEmpty()) {
            return;
        }
        List<dev.tablequeue.broker.Delivery> ds = settled.stream().<dev.tablequeue.broker.Delivery>map(Pending::d).toList();
        for (SettlementJoin join : joins) {
            try {
                join.ended(ds);
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(Settlement.class).warn("{} failed once the settlement of {} ended: {}",
                        join.getClass().getSimpleName(), ds, e.toString());
            }
        }
    }

    /** {@link #joins} for one outcome written on its own: a failure is the settlement's, as its statement's would be. */
    void joins(Connection c, Pending settled) {
        try {
            joins(c, List.of(settled));
        } catch (BatchFailure e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /** {@link #joins} for the outcomes of {@code writes} whose lease was not {@code lost}. */
    void joins(Connection c, List<Write> writes, Map<Write, Exception> lost) throws BatchFailure {
        if (joins.isEmpty()) {
            return;
        }
        List<Pending> settled = new ArrayList<>(writes.size());
        for (Write w : writes) {
            if (!lost.containsKey(w)) {
                settled.add(w.pending());
            }
        }
        joins(c, settled);
    }

    /** Plans {@code p}'s outcome as of now. */
    Write plan(Pending p) {
        return plan(p, ctx.now());
    }

    /**
     * Plans {@code p}'s outcome as of {@code now}: the outcomes of a batch are planned at one instant, so
     * those of one kind bind one time and are written by one statement.
     */
    Write plan(Pending p, Instant now) {
        InWork d = p.d();
        return new Write(p, ctx.planner.plan(p.outcome(), d.id(), d.attempt(), d.leaseHeld(), d.failure, now));
    }

    /**
     * Runs one outcome's statements (or the service's own event). With {@code token}, a statement that
     * changed no row means the lease was lost.
     */
    void write(Connection c, Write w, boolean token) throws SQLException {
        if (w.plan().own() != null) {
            runOwnNamed(c, w);
            return;
        }
        Optional<Statement> unchanged;
        try {
            unchanged = settlements.write(c, w.plan().outcome());
        } catch (QueueSettlements.Failure f) {
            throw reports.statementFailed(List.of(w), f.statement().purpose(), f.statement().sql(), f.getCause());
        }
        if (token && unchanged.isPresent()) {
            throw reports.leaseLost(w, unchanged.get());
        }
    }

    /**
     * A failed statement of a batch, and the outcomes whose statement it was (where known: the row a JDBC
     * batch's driver names, or every row of a statement over many ids).
     */
    static class BatchFailure extends Exception {
        private static final long serialVersionUID = 1L;
        final transient List<Write> culprits;

        BatchFailure(List<Write> culprits, Throwable cause) {
            super(cause);
            this.culprits = culprits;
        }
    }

    /**
     * A statement over many ids changed fewer rows than it had ids, with a lease token: some leases were
     * lost, and the statement cannot tell which. Nothing of the batch may be reported as written; each outcome
     * is written again on its own, which tells.
     */
    static final class LeaseShortfall extends BatchFailure {
        private static final long serialVersionUID = 1L;

        LeaseShortfall(QueueSettlements.Failure shortfall) {
            super(List.of(), new IllegalStateException(shortfall.getMessage()));
        }
    }

    /**
     * Writes many outcomes on {@code c} in its open transaction: the service's own events one by one, then
     * the table's settlements ({@link QueueSettlements#writeAll}). Returns the outcomes whose lease was lost
     * (with {@code token}); they changed nothing.
     *
     * @throws LeaseShortfall with {@code token}, where a statement over many ids changed fewer rows than it
     *     had: the caller rolls back and writes each outcome on its own
     */
    Map<Write, Exception> writeAll(Connection c, List<Write> writes, boolean token) throws SQLException, BatchFailure {
        List<Write> written = new ArrayList<>(writes.size());
        List<QueueSettlements.Outcome> outcomes = new ArrayList<>(writes.size());
        for (Write w : writes) {
            if (w.plan().own() != null) {
                try {
                    runOwnNamed(c, w);
                } catch (RuntimeException e) {
                    throw new BatchFailure(List.of(w), e);
                }
            } else if (!w.plan().run().isEmpty()) {
                written.add(w);
                outcomes.add(w.plan().outcome());
            }
        }
        if (outcomes.isEmpty()) {
            return Map.of();
        }
        Map<Integer, Statement> unchanged;
        try {
            unchanged = settlements.writeAll(c, outcomes, token);
        } catch (QueueSettlements.Failure f) {
            if (f.shortfall()) {
                throw new LeaseShortfall(f);
            }
            List<Write> wrote = f.wrote().stream().map(written::get).toList();
            List<Write> culprits = f.culprits().stream().map(written::get).toList();
            throw new BatchFailure(culprits, reports.statementFailed(culprits.isEmpty() ? wrote : culprits,
                    f.statement().purpose(), f.statement().sql(), f.getCause()));
        }
        if (unchanged.isEmpty()) {
            return Map.of();
        }
        Map<Write, Exception> lost = new IdentityHashMap<>();
        unchanged.forEach((i, statement) -> lost.put(written.get(i), reports.leaseLost(written.get(i), statement)));
        return lost;
    }

    /** Runs the service's own event of {@code w}; its failure names the outcome, the row and the event. */
    private void runOwnNamed(Connection c, Write w) {
        try {
            runOwn(c, w);
        } catch (TableQueueException e) {
            throw e;
        } catch (RuntimeException e) {
            throw reports.statementFailed(List.of(w), "own " + w.plan().own().name().toLowerCase().replace('_', ' '),
                    null, e);
        }
    }

    private void runOwn(Connection c, Write w) {
        DSLContext dsl = DSL.using(c, ctx.dialect.sqlDialect());
        OwnStatements own = ctx.binding.own();
        Object id = w.d().id();
        switch (w.plan().own()) {
            case ACK, DROP, RETRY -> own.settle(w.plan().own()).settle(dsl, id);
            case RETRY_AFTER -> own.retryAfter().retryAfter(dsl, id, ctx.now().plus(w.plan().delay()));
            case DEAD_LETTER -> own.deadLetter().deadLetter(dsl, id, ctx.planner.destination());
            default -> throw new IllegalStateException("not a settlement: " + w.plan().own());
        }
    }
}
