package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.ClaimOrder;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.RowFetch;
import dev.tablequeue.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jooq.impl.DSL;

/**
 * The claims of the built-in dialects ({@link QueueClaims}): each dialect gives the statements its server runs
 * and says how its claim behaves there; the steps are the same on every database.
 */
final class StatementClaims implements QueueClaims {

    /**
     * How a dialect's claim of one binding behaves on its server.
     *
     * @param inOrder whether the claim returns its rows in claim order; where not (SQLite's
     *     {@code UPDATE .. RETURNING}), it returns each row's claim order values after its columns
     *     ({@link ClaimOrder}) and the rows are sorted by them
     * @param holdsRowsItPasses whether a row lock claim keeps, until its transaction ends, the lock of every row it
     *     read and did not return (InnoDB: a claim that finds fewer rows than its limit reads on past the rows
     *     not yet due); its claim is then made again, in a new transaction, with the number it found as the
     *     limit, so that the read stops at its last row
     */
    record Behaviour(boolean inOrder, boolean holdsRowsItPasses) {}

    private final QueueDialect dialect;
    private final RoleBinding<?> binding;
    private final ClaimTexts claim;
    /** Null where the claim needs none. */
    private final FifoGuard guard;
    /** The lease stamp of one row, where the claim does not stamp its rows itself (or the claim is the service's). */
    private final Statement stamp;
    /** The fetch of one row by id, where the service claims. */
    private final Statement fetchOne;
    /** The extension of one row's lease, in the lease form (null in the row lock form). */
    private final Statement extend;
    private final Behaviour behaviour;
    /** How a row lock wait is bounded, in the row lock form (null in the lease form). */
    private final Function<Duration, LockWait> lockWait;
    private final TransactionOpening opening;

    StatementClaims(QueueDialect dialect, RoleBinding<?> binding, ClaimTexts claim, FifoGuard guard, Statement stamp,
            Statement fetchOne, Statement extend, Function<Duration, LockWait> lockWait, Behaviour behaviour) {
        this.dialect = dialect;
        this.binding = binding;
        this.claim = claim;
        this.guard = guard;
        this.stamp = stamp;
        this.fetchOne = fetchOne;
        this.extend = extend;
        this.behaviour = behaviour;
        this.lockWait = lockWait;
        this.opening = dialect.transactionOpening(binding);
    }

    @Override
    public List<Statement> statements() {
        List<Statement> all = new ArrayList<>(5);
        all.add(claim.bound());
        if (guard != null) {
            all.add(guard.statement());
        }
        if (stamp != null) {
            all.add(stamp);
        }
        if (fetchOne != null) {
            all.add(fetchOne);
        }
        if (extend != null) {
            all.add(extend);
        }
        return List.copyOf(all);
    }

    @Override
    public Statement claim(int limit) {
        return claim.at(limit);
    }

    @Override
    public int limit(int free) {
        return binding.fifo() || binding.owns(Event.CLAIM) ? 1 : free;
    }

    @Override
    public <R> List<R> claimLocked(Connection c, String group, Instant now, int limit, ClaimedRows<R> rows)
            throws SQLException {
        requireForm(Form.ROW_LOCK);
        List<R> claimed = select(c, group, now, null, limit, rows);
        if (behaviour.holdsRowsItPasses() && !claimed.isEmpty() && claimed.size() < limit) {
            // it read on past its last row, and would hold what it passed over while its handlers run
            Transactions.restart(c, opening);
            claimed = select(c, group, now, null, claimed.size(), rows);
        }
        return claimed;
    }

    @Override
    public <R> List<R> claimLeased(Connection c, String group, Instant now, Instant until, int limit,
            ClaimedRows<R> rows) throws SQLException {
        requireForm(Form.LEASE);
        if (guard == null && stamp == null && opening.equals(TransactionOpening.DEFAULT)) {
            // one statement leases its rows: auto-commit makes it atomic without a transaction
            return select(c, group, now, until, limit, rows);
        }
        Transactions.begin(c, opening);
        try {
            List<R> claimed = leaseInTransaction(c, group, now, until, limit, rows);
            Transactions.commit(c, opening);
            return claimed;
        } catch (SQLException | RuntimeException e) {
            Transactions.rollbackQuietly(c, opening);
            throw e;
        }
    }

    @Override
    public boolean extendLease(Connection c, Object id, Instant held, Instant until) throws SQLException {
        requireForm(Form.LEASE);
        if (binding.owns(Event.EXTEND)) {
            return binding.own().extend().extend(DSL.using(c, dialect.sqlDialect()), id, held, until);
        }
        return Jdbc.update(c, extend, new Binds().id(id).leaseHeld(held).leaseUntil(until), dialect) == 1;
    }

    @Override
    public LockWait lockWait(Duration bound) {
        requireForm(Form.ROW_LOCK);
        return lockWait.apply(bound);
    }

    /**
     * The row lock claim's guard and claim in the transaction {@code c} has open, never made again: the dialect
     * tests run it beside other statements of one transaction, which a claim made again would roll back.
     */
    <R> List<R> lockInTransaction(Connection c, String group, Instant now, int limit, ClaimedRows<R> rows)
            throws SQLException {
        requireForm(Form.ROW_LOCK);
        return select(c, group, now, null, limit, rows);
    }

    /**
     * The lease claim's steps in the transaction {@code c} has open: the guard, the claim, the stamp of each row
     * the claim did not stamp itself. The dialect tests run them beside other statements of one transaction.
     */
    <R> List<R> leaseInTransaction(Connection c, String group, Instant now, Instant until, int limit,
            ClaimedRows<R> rows) throws SQLException {
        requireForm(Form.LEASE);
        List<R> claimed = select(c, group, now, until, limit, rows);
        if (!binding.owns(Event.CLAIM)) {
            stamp(c, claimed, until, rows);
        }
        return claimed;
    }

    private void requireForm(Form form) {
        if (binding.form() != form) {
            throw new DialectException(dialect.name(), binding.tableName(), "a table of the " + binding.form()
                    + " form has no " + form + " claim");
        }
    }

    /** The FIFO guard, where there is one, then the claim (the dialect's or the service's own), in claim order. */
    private <R> List<R> select(Connection c, String group, Instant now, Instant until, int limit,
            ClaimedRows<R> rows) throws SQLException {
        Binds binds = new Binds().group(group).now(now).limit(limit).leaseUntil(until);
        if (guard != null) {
            if (guard.answers()) {
                if (!Jdbc.query(c, guard.statement(), binds, dialect, Jdbc::firstBoolean)) {
                    return List.of();
                }
            } else {
                Jdbc.query(c, guard.statement(), binds, dialect, rs -> null);
            }
        }
        if (binding.owns(Event.CLAIM)) {
            return ownClaim(c, group, until, rows);
        }
        if (!behaviour.inOrder()) {
            return Jdbc.query(c, claim.at(limit), binds, dialect, rs -> ClaimOrder.readAll(rs, rows::read));
        }
        return Jdbc.query(c, claim.at(limit), binds, dialect, rows::readAll);
    }

    /** Stamps the lease of each row the claim selected without stamping it; a row the stamp missed fails the claim. */
    private <R> void stamp(Connection c, List<R> claimed, Instant until, ClaimedRows<R> rows) throws SQLException {
        if (claimed.isEmpty() || stamp == null) {
            return;
        }
        List<Binds> stamps = new ArrayList<>(claimed.size());
        for (R row : claimed) {
            stamps.add(new Binds().ids(List.of(rows.id(row))).leaseUntil(until));
        }
        int[] written = Jdbc.updateEach(c, stamp, stamps, dialect);
        for (int i = 0; i < written.length; i++) {
            // a driver that does not count a batch's rows reports SUCCESS_NO_INFO (-2)
            if (written[i] == 0) {
                throw new SQLException("the " + stamp.purpose() + " of table \"" + binding.tableName()
                        + "\" wrote no row for claimed id " + rows.id(claimed.get(i)) + ": " + stamp.sql());
            }
        }
    }

    /**
     * The service's own claim: it returns the ids it took (and locked, in the row lock form); in the lease form
     * they are stamped; then the service's own fetch, or the dialect's, reads them.
     */
    private <R> List<R> ownClaim(Connection c, String group, Instant until, ClaimedRows<R> rows) throws SQLException {
        List<?> ids = binding.own().claim().claim(DSL.using(c, dialect.sqlDialect()), group, 1);
        if (ids == null || ids.isEmpty()) {
            return List.of();
        }
        Object id = ids.get(0);
        if (stamp != null) {
            Jdbc.update(c, stamp, new Binds().ids(List.of(id)).leaseUntil(until), dialect);
        }
        return RowFetch.fetch(c, dialect, binding, fetchOne, id, rows);
    }
}
