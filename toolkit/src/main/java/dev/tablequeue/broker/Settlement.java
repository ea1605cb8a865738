package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.OwnStatements;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.StatementBinder;
import dev.tablequeue.transport.SettlementJoin;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Runs planned outcomes on a connection, for every completer: one outcome's statements (or the service's own
 * event), or many outcomes together, those of one kind as one statement over their rows (bound as data)
 * where the dialect writes it so, the others each distinct statement sent once as a JDBC batch. Where and in which transaction
 * they run is the completer's.
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
    private final ManyRowStatements manyRows;
    /** The handler middlewares whose statements join each settlement, where its deliveries join ({@link InWork#joinsSettlement}). */
    private final List<SettlementJoin> joins;

    /**
     * The settlement of {@code ctx}'s subscription; its many-row statements are prepared with the
     * subscription's others when it opens ({@link StartRules}).
     */
    Settlement(SubscriptionContext ctx, Connection opening) {
        this.ctx = ctx;
        this.reports = new SettlementReports(ctx);
        this.manyRows = new ManyRowStatements(ctx.dialect, ctx.binding, ctx.statements);
        this.joins = ctx.binding.form() == dev.tablequeue.binding.Form.ADVISORY ? List.of()
                : ctx.broker.middlewares.joins();
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
        return new Write(p, ctx.planner.plan(p.outcome(), d.id(), d.attempt(), d.leaseHeld, d.failure, now));
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
        for (Statement statement : w.plan().run()) {
            int changed;
            try {
                changed = Jdbc.update(c, statement, w.plan().binds(), ctx.dialect);
            } catch (SQLException e) {
                throw reports.statementFailed(List.of(w), statement.purpose(), statement.sql(), e);
            }
            if (token && changed == 0) {
                throw reports.leaseLost(w, statement);
            }
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

        LeaseShortfall(Statement statement, int expected, int changed) {
            super(List.of(), new IllegalStateException("the " + statement.purpose() + " of " + expected
                    + " rows changed " + changed + ": some leases were lost"));
        }
    }

    /**
     * Writes many outcomes on {@code c} in its open transaction: the service's own events one by one, then
     * the statements stage by stage (a dead letter into a table copies every row before it deletes any).
     * Outcomes of one kind go as one statement over their rows, bound as data ({@link SettlementGroups}); each other distinct statement is sent once as a JDBC batch. Returns the
     * outcomes whose lease was lost (with {@code token}); they changed nothing.
     *
     * @throws LeaseShortfall with {@code token}, where a statement over many ids changed fewer rows than it
     *     had: the caller rolls back and writes each outcome on its own
     */
    Map<Write, Exception> writeAll(Connection c, List<Write> writes, boolean token) throws SQLException, BatchFailure {
        // made at the first lost lease: most writes lose none, and this runs for every outcome written
        Map<Write, Exception> lost = Map.of();
        int stages = 0;
        for (Write w : writes) {
            if (w.plan().own() != null) {
                try {
                    runOwnNamed(c, w);
                } catch (RuntimeException e) {
                    throw new BatchFailure(List.of(w), e);
                }
            }
            stages = Math.max(stages, w.plan().run().size());
        }
        if (writes.size() == 1) {
            return writeOne(c, writes.get(0), token);
        }
        for (int stage = 0; stage < stages; stage++) {
            List<Write> live = new ArrayList<>(writes.size());
            for (Write w : writes) {
                if (!lost.containsKey(w)) {
                    live.add(w);
                }
            }
            for (SettlementGroups.Group g : SettlementGroups.group(live, stage, manyRows::of)) {
                if (g.byRows()) {
                    executeByRows(c, g, token);
                    continue;
                }
                int[] changed = execute(c, g.statement(), g.writes());
                for (int i = 0; i < g.writes().size(); i++) {
                    if (token && changed[i] == 0) {
                        if (lost.isEmpty()) {
                            lost = new IdentityHashMap<>();
                        }
                        lost.put(g.writes().get(i), reports.leaseLost(g.writes().get(i), g.statement()));
                    }
                }
            }
        }
        return lost;
    }

    /** {@link #writeAll} of one outcome: its statements in turn, with nothing to group. */
    private Map<Write, Exception> writeOne(Connection c, Write w, boolean token) throws SQLException, BatchFailure {
        for (Statement statement : w.plan().run()) {
            if (execute(c, statement, List.of(w))[0] == 0 && token) {
                return Map.of(w, reports.leaseLost(w, statement));
            }
        }
        return Map.of();
    }

    /**
     * Runs {@code g}'s statement over the rows of its outcomes, bound as data; with {@code token}, each must
     * change its row.
     */
    private void executeByRows(Connection c, SettlementGroups.Group g, boolean token) throws BatchFailure {
        Statement many = g.many();
        Binds binds = g.binds();
        int changed;
        try {
            changed = Jdbc.update(c, many, binds, ctx.dialect);
        } catch (SQLException e) {
            throw new BatchFailure(g.writes(), reports.statementFailed(g.writes(), many.purpose(), many.sql(), e));
        }
        if (token && changed < g.writes().size()) {
            throw new LeaseShortfall(many, g.writes().size(), changed);
        }
    }

    /** Runs {@code statement} once per outcome, as one JDBC batch where there are several; rows changed by each. */
    private int[] execute(Connection c, Statement statement, List<Write> batch) throws SQLException, BatchFailure {
        if (batch.size() == 1) {
            try {
                return new int[] {Jdbc.update(c, statement, batch.get(0).plan().binds(), ctx.dialect)};
            } catch (SQLException e) {
                throw new BatchFailure(batch, reports.statementFailed(batch, statement.purpose(), statement.sql(), e));
            }
        }
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            for (Write w : batch) {
                StatementBinder.bind(ps, statement, w.plan().binds(), ctx.dialect);
                ps.addBatch();
            }
            try {
                return ps.executeBatch();
            } catch (BatchUpdateException e) {
                int[] done = e.getUpdateCounts();
                List<Write> culprit = done != null && done.length < batch.size() ? List.of(batch.get(done.length))
                        : List.of();
                throw new BatchFailure(culprit, reports.statementFailed(culprit.isEmpty() ? batch : culprit,
                        statement.purpose(), statement.sql(), e));
            }
        }
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
