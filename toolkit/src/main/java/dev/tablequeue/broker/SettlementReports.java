package dev.tablequeue.broker;

import dev.tablequeue.BatchRolledBackException;
import dev.tablequeue.BrokerClosedException;
import dev.tablequeue.LeaseLostException;
import dev.tablequeue.OutcomeUnknownException;
import dev.tablequeue.SettlementException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.dialect.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the completers tell of each outcome, and how: the listener's calls (settled, dead-lettered, failed,
 * unknown, lease lost), the log lines, the wake-up a returned row gives the claim, and the exceptions that
 * name the outcome, the row, the table and the failed statement.
 */
final class SettlementReports {
    private static final Logger LOG = LoggerFactory.getLogger(SettlementReports.class);

    private final SubscriptionContext ctx;

    SettlementReports(SubscriptionContext ctx) {
        this.ctx = ctx;
    }

    void succeeded(Settlement.Write w) {
        InWork d = w.d();
        switch (w.plan().kind()) {
            case RETRY -> ctx.returned(Duration.ZERO);
            case RETRY_AFTER -> ctx.returned(w.plan().delay());
            default -> { }
        }
        if (w.plan().kind() == SettlementPlanner.Kind.ACK) {
            ctx.acknowledged.add(ctx.now());
        }
        if (w.plan().kind() == SettlementPlanner.Kind.DEAD_LETTER) {
            ctx.broker.listener.deadLettered(d, ctx.planner.destination());
        }
        ctx.broker.listener.settled(d, w.pending().outcome());
    }

    void failed(Settlement.Pending p, Throwable cause) {
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
        if (e instanceof LeaseLostException && p.d() instanceof LeaseDelivery d) {
            leaseLost(d);
        }
        ctx.broker.listener.settlementFailed(p.d(), p.outcome(), e);
    }

    /** Tells the listener, once per delivery, that its lease was lost. */
    void leaseLost(LeaseDelivery d) {
        if (d.lostReported.compareAndSet(false, true)) {
            ctx.broker.listener.leaseLost(d);
        }
    }

    void unknown(Settlement.Pending p, Throwable cause) {
        OutcomeUnknownException e = new OutcomeUnknownException("the " + describe(p.outcome()) + " of row "
                + p.d().id() + " of table \"" + ctx.binding.tableName() + "\" (queue " + ctx.queue + ") may or"
                + " may not have been written: the connection failed while its commit was under way, and no later"
                + " attempt settled it: " + reason(cause), ctx.binding.tableName(), p.d().id(), cause);
        LOG.warn("{}", e.getMessage());
        ctx.broker.listener.settlementUnknown(p.d(), p.outcome(), e);
    }

    /** Reports an outcome that was not written: as unknown where an attempt may have committed it. */
    void notWritten(Settlement.Write w, Throwable e, boolean mayHaveCommitted) {
        if (mayHaveCommitted) {
            unknown(w.pending(), e);
        } else {
            failed(w.pending(), e);
        }
    }

    /** Reports outcomes written together: each succeeded, but for those whose lease was {@code lost}. */
    void report(List<Settlement.Write> writes, Map<Settlement.Write, Exception> lost) {
        for (Settlement.Write w : writes) {
            Exception e = lost.get(w);
            if (e == null) {
                succeeded(w);
            } else {
                failed(w.pending(), e);
            }
        }
    }

    /**
     * Reports the outcomes of a transaction that rolled back: those whose statement failed ({@code culprits},
     * or each where none is known) with its cause, the others with {@link BatchRolledBackException}.
     */
    void rolledBack(List<Settlement.Write> writes, List<Settlement.Write> culprits, Throwable cause) {
        List<Object> ids = writes.stream().map(w -> w.d().id()).toList();
        String culprit = culprits.size() == 1
                ? "the " + describe(culprits.get(0).pending().outcome()) + " of row " + culprits.get(0).d().id()
                : culprits.isEmpty() ? "a settlement"
                : "the settlement of rows " + culprits.stream().map(w -> w.d().id()).toList();
        for (Settlement.Write w : writes) {
            if (writes.size() == 1 || culprits.contains(w)) {
                failed(w.pending(), cause);
            } else {
                failed(w.pending(), new BatchRolledBackException("rows " + ids + " of table \""
                        + ctx.binding.tableName() + "\" (queue " + ctx.queue + ") shared one claim's transaction,"
                        + " and " + culprit + " failed and rolled it back: every one of these rows"
                        + " is back in the queue as it was before the claim, and this " + describe(w.pending()
                        .outcome()) + " was not written", cause));
            }
        }
    }

    /** The deliveries of {@code outcomes} are out of work. */
    void forget(List<Settlement.Pending> outcomes) {
        for (Settlement.Pending p : outcomes) {
            ctx.inWork.remove(p.d());
        }
    }

    BrokerClosedException closed(InWork d, Outcome outcome) {
        return new BrokerClosedException(d + " was released when the broker closed; its row is back in the"
                + " queue and the " + describe(outcome) + " was not written");
    }

    LeaseLostException leaseLost(Settlement.Write w, Statement statement) {
        return new LeaseLostException("the lease of row " + w.d().id() + " of table \"" + ctx.binding.tableName()
                + "\" (queue " + ctx.queue + ") ran out before its " + statement.purpose()
                + "; another claim may hold the row, and nothing was changed");
    }

    /**
     * The failure of a statement that wrote {@code writes}' outcomes: naming the outcome, the row and the
     * table where it wrote one, the rows where it wrote several, and the statement with its SQL.
     */
    SettlementException statementFailed(List<Settlement.Write> writes, String statement, String sql, Throwable cause) {
        if (writes.size() == 1) {
            return statementFailed(writes.get(0).pending(), statement, sql, cause);
        }
        List<Object> ids = writes.stream().map(w -> w.d().id()).toList();
        return new SettlementException("the outcomes of rows " + ids + " of table \"" + ctx.binding.tableName()
                + "\" (queue " + ctx.queue + ") were not written: " + failure(statement, sql, cause),
                ctx.binding.tableName(), null, statement, sql, cause);
    }

    private SettlementException statementFailed(Settlement.Pending p, String statement, String sql, Throwable cause) {
        return new SettlementException("the " + describe(p.outcome()) + " of row " + p.d().id() + " of table \""
                + ctx.binding.tableName() + "\" (queue " + ctx.queue + ") was not written: "
                + failure(statement, sql, cause), ctx.binding.tableName(), p.d().id(), statement, sql, cause);
    }

    /** Why {@code cause} failed: the statement and the driver's words where a settlement statement failed. */
    static String reason(Throwable cause) {
        return cause instanceof SettlementException s ? failure(s.statement(), s.sql(), s.getCause())
                : cause.toString();
    }

    private static String failure(String statement, String sql, Throwable cause) {
        return "its " + statement + (sql != null ? " statement" : "") + " failed: " + cause.getMessage()
                + (sql != null ? " [SQL: " + sql + "]" : "");
    }

    static String describe(Outcome outcome) {
        return SettlementPlanner.describe(outcome);
    }
}
