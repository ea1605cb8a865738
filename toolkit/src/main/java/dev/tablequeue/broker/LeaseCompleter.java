package dev.tablequeue.broker;

import dev.tablequeue.LeaseLostException;
import dev.tablequeue.dialect.TransactionOpening;
import dev.tablequeue.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lease: writes the outcomes that arrived together in one transaction of their own (those of one kind and
 * one lease expiry as one statement over their ids, the others each statement sent once as a JDBC batch),
 * each taking effect only while its row still holds the delivery's lease. A batch whose statement fails, or
 * whose statement over many ids changed fewer rows than it named (a lease was lost, and the count cannot say
 * whose), is rolled back and written again outcome by outcome: one bad row costs only its own settlement,
 * and each lost lease is told exactly.
 */
final class LeaseCompleter implements Completer, InlineCompleter.Queued {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseCompleter.class);
    /** The first pause before a lease outcome is written again on another connection; it doubles up to a second. */

    private final SubscriptionContext ctx;
    private final Settlement settlement;
    private final SettlementReports reports;
    private final Slots slots;
    private final Settler settler;

    LeaseCompleter(SubscriptionContext ctx, Settlement settlement, Slots slots, String name, int writers) {
        this.ctx = ctx;
        this.settlement = settlement;
        this.reports = settlement.reports;
        this.slots = slots;
        this.settler = new Settler(this::settle, slots, name, writers);
    }

    @Override
    public Settler settler() {
        return settler;
    }

    @Override
    public void queue(Settlement.Pending p) {
        settler.submit(p);
    }

    /** A batch's outcomes, queued as one arrival: a settle thread takes them all together. */
    @Override
    public void queueAll(List<Settlement.Pending> ps) {
        settler.submitAll(ps);
    }

    @Override
    public void start() {
        settler.start();
    }

    /**
     * Takes a delivery's answer: an acknowledgement that commits the handler's writes is written on the
     * caller's thread in the delivery's own transaction; any other answer is queued for the settle threads.
     */
    @Override
    public void complete(Settlement.Pending p) {
        slots.handled();
        if (p.d().transaction() != null && p.d().transaction().keeps()) {
            try {
                settleInTransaction(p);
            } finally {
                slots.settled(1);
            }
            return;
        }
        settler.submit(p);
    }

    /**
     * A batch handler's answers, queued as one arrival (a batch is never transactional, which {@code batch(n)}
     * refuses; a delivery with a transaction would still commit its own, as {@link #complete} does).
     */
    @Override
    public void completeAll(List<Settlement.Pending> ps) {
        if (ps.stream().anyMatch(p -> p.d().transaction() != null)) {
            ps.forEach(this::complete);
            return;
        }
        ps.forEach(p -> slots.handled());
        queueAll(ps);
    }

    /**
     * Writes an acknowledgement in the delivery's own transaction and commits it with what the handler wrote
     * there, only while the row still holds the delivery's lease: where the lease was lost, both roll back
     * and the acknowledgement fails with {@link LeaseLostException}. The transaction's connection closes.
     */
    private void settleInTransaction(Settlement.Pending p) {
        LeaseDelivery d = (LeaseDelivery) p.d();
        LeaseTransaction tx = d.transaction();
        d.lock.lock();
        try {
            if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.SETTLED)) {
                reports.failed(p, reports.closed(d, p.outcome()));
                return;
            }
            Settlement.Write w = settlement.plan(p);
            boolean committing = false;
            try {
                settlement.write(tx.connection(), w, true);
                settlement.joins(tx.connection(), p);
                committing = true;
                tx.commit();
            } catch (SQLException | RuntimeException e) {
                tx.rollbackQuietly();
                reports.notWritten(w, e, committing && Connections.lost(e, tx.connection()));
                return;
            }
            reports.succeeded(w);
        } finally {
            d.lock.unlock();
            tx.end();
            reports.forget(List.of(p));
            settlement.ended(List.of(p));
        }
    }

    @Override
    public void stop(long deadline) {
        settler.stop(deadline);
    }

    @Override
    public void awaitUnderWay(long until) {
        settler.stop(until);
    }

    /** A lease delivery keeps its lease at shutdown and settles as before. */
    @Override
    public Settlement.Release release(InWork d) {
        return Settlement.Release.KEPT;
    }

    /**
     * Writes lease outcomes together in one transaction; each takes effect only while its row still holds
     * the delivery's lease, and one whose lease ran out fails with {@link LeaseLostException} while the others
     * are written. Where a statement fails, or one over many ids changed fewer rows than it named, the
     * transaction rolls back and each outcome is written again on its own, so one bad row costs only its own
     * settlement and a lost lease is told for its own delivery alone.
     */
    void settle(List<Settlement.Pending> outcomes) {
        List<LeaseDelivery> locked = new ArrayList<>(outcomes.size());
        List<Settlement.Write> writes = new ArrayList<>(outcomes.size());
        ctx.turn.lock();
        try {
            Instant now = ctx.now();
            for (Settlement.Pending p : outcomes) {
                LeaseDelivery d = (LeaseDelivery) p.d();
                d.lock.lock();
                locked.add(d);
                if (!d.state.compareAndSet(InWork.State.IN_WORK, InWork.State.SETTLED)) {
                    reports.failed(p, reports.closed(d, p.outcome()));
                    continue;
                }
                if (!p.writesNothing()) {
                    // a row written nothing keeps its lease, which runs out: the keeper no longer extends it
                    writes.add(settlement.plan(p, now));
                }
            }
            if (writes.size() == 1) {
                settleAlone(writes.get(0), false);
            } else if (!writes.isEmpty()) {
                settleTogether(writes);
            }
        } finally {
            for (LeaseDelivery d : locked) {
                d.lock.unlock();
            }
            ctx.turn.unlock();
            reports.forget(outcomes);
            settlement.ended(outcomes);
        }
    }

    /**
     * The opening of a lease settlement's transaction: the binding's where it is explicit (SQLite's
     * {@code BEGIN} mode), the database's default level elsewhere, the same for a batch and for one outcome.
     */
    private TransactionOpening opening() {
        return ctx.statements.opening().explicit() ? ctx.statements.opening() : TransactionOpening.DEFAULT;
    }

    private void settleTogether(List<Settlement.Write> writes) {
        Map<Settlement.Write, Exception> lost;
        boolean committing = false;
        try (Connection c = ctx.broker.dataSource.getConnection()) {
            TransactionOpening opening = opening();
            Transactions.begin(c, opening);
            try {
                lost = settlement.writeAll(c, writes, true);
                settlement.joins(c, writes, lost);
                committing = true;
                Transactions.commit(c, opening);
            } catch (Exception e) {
                Transactions.rollbackQuietly(c, opening);
                committing = committing && Connections.lost(e, c);
                throw e;
            }
        } catch (Exception e) {
            LOG.debug("a batch of {} settlements of {} failed; writing each on its own: {}", writes.size(),
                    ctx.queue, e.toString());
            for (Settlement.Write w : writes) {
                // a commit the connection's failure interrupted may have taken effect
                settleAlone(w, committing);
            }
            return;
        }
        reports.report(writes, lost);
    }

    /**
     * One outcome, written by {@link #writeAlone}. Where its connection fails (the server killed the
     * session, the network dropped) the outcome is written again on another one while its lease holds: the
     * lease makes that safe, since each statement takes effect only while the row holds the delivery's
     * lease. An outcome whose commit a failure left unknown, and that no later attempt settles, is reported
     * as unknown, not as failed.
     *
     * @param mayHaveCommitted whether an earlier attempt (a batch) failed while its commit was under way
     */
    private void settleAlone(Settlement.Write w, boolean mayHaveCommitted) {
        long pause = LostConnection.FIRST_PAUSE_MILLIS;
        while (true) {
            try {
                writeAlone(w);
                reports.succeeded(w);
                return;
            } catch (LostConnection e) {
                mayHaveCommitted |= e.atCommit;
                if (!ctx.now().plusMillis(pause).isBefore(w.d().leaseHeld()) || !LostConnection.pause(pause)) {
                    reports.notWritten(w, e.getCause(), mayHaveCommitted);
                    return;
                }
                LOG.info("the connection writing the {} of {} failed, writing it again on another while its lease"
                        + " holds: {}", SettlementReports.describe(w.pending().outcome()), w.d(),
                        SettlementReports.reason(e.getCause()));
                pause = Math.min(pause * 2, 1_000);
            } catch (Exception e) {
                reports.notWritten(w, e, mayHaveCommitted);
                return;
            }
        }
    }

    /**
     * One outcome on a connection of its own, in auto-commit where it is one statement, else (a dead letter
     * into a table, the service's own event) in a transaction, so its statements take effect together.
     *
     * @throws LostConnection where the connection failed, saying whether the commit was under way
     */
    private void writeAlone(Settlement.Write w) throws SQLException, LostConnection {
        boolean committing = false;
        boolean connected = false;
        try (Connection c = ctx.broker.dataSource.getConnection()) {
            connected = true;
            // a middleware's statements that join the settlement commit with its one statement
            boolean tx = w.plan().needsTransaction() || settlement.joined();
            TransactionOpening opening = opening();
            if (tx) {
                Transactions.begin(c, opening);
            }
            try {
                committing = !tx;
                settlement.write(c, w, true);
                settlement.joins(c, w.pending());
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
            // no connection came (the pool timed out, the server is restarting): nothing was sent; a statement's
            // failure on a sound connection was told from a lost connection above
            if (!connected && Connections.lost(e, null)) {
                throw new LostConnection(e, false);
            }
            throw e;
        }
    }
}
