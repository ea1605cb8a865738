package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.OwnStatements;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.StatementBinder;
import dev.tablequeue.internal.Jdbc;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Runs planned outcomes on a connection, for every completer: one outcome's statements (or the service's own
 * event), or many outcomes together, each distinct statement sent once as a JDBC batch, with the statements
 * the dialect built and the server prepared when the subscription opened. Where and in which transaction
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

    Settlement(SubscriptionContext ctx) {
        this.ctx = ctx;
        this.reports = new SettlementReports(ctx);
    }

    /** Plans {@code p}'s outcome as of now. */
    Write plan(Pending p) {
        InWork d = p.d();
        return new Write(p, ctx.planner.plan(p.outcome(), d.id(), d.attempt(), d.leaseHeld, d.failure, ctx.now()));
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

    /** A failed statement of a batch, and the outcome whose statement it was (where the driver says). */
    static final class BatchFailure extends Exception {
        private static final long serialVersionUID = 1L;
        final transient Write write;

        BatchFailure(Write write, Throwable cause) {
            super(cause);
            this.write = write;
        }
    }

    /**
     * Writes many outcomes on {@code c} in its open transaction: the service's own events one by one, then
     * the statements stage by stage (a dead letter into a table copies every row before it deletes any),
     * each distinct statement sent once as a JDBC batch. Returns the outcomes whose lease was lost (with
     * {@code token}); they changed nothing.
     */
    Map<Write, Exception> writeAll(Connection c, List<Write> writes, boolean token) throws SQLException, BatchFailure {
        Map<Write, Exception> lost = new IdentityHashMap<>();
        int stages = 0;
        for (Write w : writes) {
            if (w.plan().own() != null) {
                try {
                    runOwnNamed(c, w);
                } catch (RuntimeException e) {
                    throw new BatchFailure(w, e);
                }
            }
            stages = Math.max(stages, w.plan().run().size());
        }
        for (int stage = 0; stage < stages; stage++) {
            Map<Statement, List<Write>> byStatement = new LinkedHashMap<>();
            for (Write w : writes) {
                if (w.plan().run().size() > stage && !lost.containsKey(w)) {
                    byStatement.computeIfAbsent(w.plan().run().get(stage), s -> new ArrayList<>()).add(w);
                }
            }
            for (Map.Entry<Statement, List<Write>> e : byStatement.entrySet()) {
                Statement statement = e.getKey();
                List<Write> batch = e.getValue();
                int[] changed = execute(c, statement, batch);
                for (int i = 0; i < batch.size(); i++) {
                    if (token && changed[i] == 0) {
                        lost.put(batch.get(i), reports.leaseLost(batch.get(i), statement));
                    }
                }
            }
        }
        return lost;
    }

    /** Runs {@code statement} once per outcome, as one JDBC batch where there are several; rows changed by each. */
    private int[] execute(Connection c, Statement statement, List<Write> batch) throws SQLException, BatchFailure {
        if (batch.size() == 1) {
            try {
                return new int[] {Jdbc.update(c, statement, batch.get(0).plan().binds(), ctx.dialect)};
            } catch (SQLException e) {
                throw new BatchFailure(batch.get(0),
                        reports.statementFailed(batch, statement.purpose(), statement.sql(), e));
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
                Write culprit = done != null && done.length < batch.size() ? batch.get(done.length) : null;
                throw new BatchFailure(culprit, reports.statementFailed(culprit != null ? List.of(culprit) : batch,
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
