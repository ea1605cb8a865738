package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.StatementWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The claims every built-in dialect shares ({@link #claims}): the row lock claim, the lease stamp and extension,
 * the fetch by ids, built with jOOQ and rendered for {@link #sqlDialect()}, and what each built-in says of how
 * its own lease claim and FIFO guard behave on its server. The settlements and the rest are {@link
 * JooqQueueDialect}'s.
 */
abstract class JooqClaimsDialect extends JooqPieces {

    JooqClaimsDialect(SQLDialect sqlDialect) {
        super(sqlDialect);
    }


    @Override
    public QueueClaims claims(RoleBinding<?> b, ClaimShape shape, boolean inKeyOrder) {
        requireForm(b);
        RoleBinding<?> claimed = inKeyOrder ? b.inKeyOrder() : b;
        boolean own = b.owns(Event.CLAIM);
        FifoGuard guard = b.fifo() ? fifoGuard(b).orElse(null) : null;
        return switch (b.form()) {
            case ROW_LOCK -> new StatementClaims(this, b, claimTexts(w -> claimRowLock(claimed, shape, w)), guard,
                    null, own ? fetchByIds(b, shape, 1, false) : null, null, bound -> lockWait(b, bound),
                    new StatementClaims.Behaviour(true, rowLockClaimHoldsRowsItPasses(b)));
            case LEASE -> new StatementClaims(this, b, claimTexts(w -> claimLease(claimed, shape, w)), guard,
                    own || !claimLeaseStamps() ? leaseStamp(b, 1) : null,
                    own ? fetchByIds(b, shape, 1, true) : null, leaseExtend(b), null,
                    new StatementClaims.Behaviour(b.fifo() || claimLeaseInOrder(), false));
            case ADVISORY -> throw new DialectException(name(), b.tableName(),
                    "the advisory form claims by its candidates and keys, not by a row lock or lease claim");
        };
    }

    @Override
    public QueueKeys keys(RoleBinding<?> b, ClaimShape shape, boolean inKeyOrder) {
        requireForm(b);
        if (b.form() != Form.ADVISORY) {
            throw new DialectException(name(), b.tableName(), "a table of the " + b.form()
                    + " form claims by its rows, not by advisory keys");
        }
        RoleBinding<?> claimed = inKeyOrder ? b.inKeyOrder() : b;
        boolean fetch = b.owns(Event.CLAIM) || !advisoryTakeReturnsRows(b);
        // the one-statement claims take and release the dialect's own locks, and read the rows they take
        boolean oneStatement = !fetch && !b.owns(Event.LOCK) && !b.owns(Event.UNLOCK);
        return new StatementKeys(this, b, claimTexts(w -> advisoryCandidates(claimed, w)), advisoryTake(b, shape),
                fetch ? fetchByIds(b, shape, 1, true) : null,
                oneStatement ? advisoryLockAndTake(b, shape).orElse(null) : null,
                oneStatement ? advisoryWalk(claimed, shape).orElse(null) : null);
    }

    @Override
    public KeyLocks keyLocks(RoleBinding<?> b, Connection connection) throws SQLException {
        Optional<ProcessKeys> process = processKeys(connection);
        if (process.isPresent()) {
            return KeyLocks.inProcess(process.get());
        }
        return KeyLocks.ofSession(this, advisoryLock(b).orElseThrow(), advisoryUnlock(b).orElseThrow());
    }

    /** Takes a key's lock for the session without waiting; one boolean-like column. Empty where the process keeps the keys. */
    abstract Optional<Statement> advisoryLock(RoleBinding<?> b);

    /** Releases a key's lock; one boolean-like column, whether the session held it. Empty where the process keeps the keys. */
    abstract Optional<Statement> advisoryUnlock(RoleBinding<?> b);

    /** The keys the process keeps of the database {@code connection} reaches, where its sessions hold no locks. */
    Optional<ProcessKeys> processKeys(Connection connection) throws SQLException {
        return Optional.empty();
    }

    /**
     * The advisory candidates: id and key text of due rows, in claim order, up to the limit, keys held elsewhere
     * left out where the database can see them.
     */
    final Statement advisoryCandidates(RoleBinding<?> b) {
        return advisoryCandidates(b, writer());
    }

    /** The advisory candidates, written with {@code w}. */
    abstract Statement advisoryCandidates(RoleBinding<?> b, StatementWriter w);

    /**
     * Takes a row whose key the session holds, while it is still claimable, counting the attempt. Where {@link
     * #advisoryTakeReturnsRows} is false it returns an update count, and the claim reads the row with {@link
     * #fetchByIds}.
     */
    abstract Statement advisoryTake(RoleBinding<?> b, ClaimShape shape);

    /**
     * Whether {@link #advisoryTake} returns the row it took: a database without {@code UPDATE .. RETURNING}
     * counts the attempt with an UPDATE, and reads a table without an attempt column with a SELECT.
     */
    abstract boolean advisoryTakeReturnsRows(RoleBinding<?> b);

    /**
     * The claim of one candidate in one statement: the key's lock taken without waiting and, where it was, the
     * row taken as {@link #advisoryTake} takes it (binding the key, then what the take binds), in the take's shape.
     * No row where the key is held elsewhere or the row is no longer claimable, and the session then holds no
     * lock on the key. The take waits for an uncommitted write to the row and judges the row as that write leaves
     * it (a row may be settled, and its key released, between the statement's start and its lock). Empty where
     * the database has none: the claim then locks and takes apart.
     */
    Optional<Statement> advisoryLockAndTake(RoleBinding<?> b, ClaimShape shape) {
        return Optional.empty();
    }

    /**
     * The claim of one row in one statement, without candidates: the claimable rows walked in claim order, each
     * one's key tried without waiting until one locks, and that row taken as {@link #advisoryLockAndTake} takes
     * it. It binds the group and the host's time and returns one row: the row in the take's shape and its key
     * text ({@code tq_key}), then whether it locked a key ({@code tq_locked}) and whether it gave up after the
     * rows it may try ({@code tq_cut}); the row's columns and {@code tq_key} NULL where it took none, and then the
     * session holds no key it locked. Empty where the database has none: the claim then reads candidates.
     */
    Optional<Statement> advisoryWalk(RoleBinding<?> b, ClaimShape shape) {
        return Optional.empty();
    }

    /**
     * The texts a claim runs, each written by {@code build}: here one that binds its limit; a dialect whose server
     * plans a bound limit badly writes one per limit ({@link ClaimTexts}).
     */
    ClaimTexts claimTexts(Function<StatementWriter, Statement> build) {
        return ClaimTexts.bound(build.apply(writer()));
    }

    /** The row lock claim: due rows of the group in claim order, locked for the claim's transaction. */
    final Statement claimRowLock(RoleBinding<?> b, ClaimShape shape) {
        return claimRowLock(b, shape, writer());
    }

    /** The row lock claim, written with {@code w}. */
    Statement claimRowLock(RoleBinding<?> b, ClaimShape shape, StatementWriter w) {
        requireForm(b);
        DSLContext dsl = w.dsl();
        if (b.fifo()) {
            return w.statement("fifo claim", dsl.select(shape(b, shape, false))
                    .from(b.table())
                    .where(typed(b.id()).eq(fifoHead(w, b)))
                    .and(dueAndUnfinished(w, b))
                    .forUpdate()
                    .skipLocked());
        }
        return w.statement("claim", dsl.select(shape(b, shape, false))
                .from(b.table())
                .where(claimable(w, b))
                .orderBy(claimOrder(b))
                .limit(w.integer(Param.of(Param.Kind.LIMIT)))
                .forUpdate()
                .skipLocked());
    }

    /** The id of a FIFO group's head: its first unfinished row in claim order, due or not. */
    Field<Object> fifoHead(StatementWriter w, RoleBinding<?> b) {
        Field<Object> group = typed(b.column(Role.GROUP).orElseThrow());
        Condition unfinished = b.column(Role.PROCESSED_AT).map(p -> unqualified(p).isNull())
                .orElse(DSL.noCondition());
        return DSL.field(w.dsl().select(typed(b.id()))
                .from(b.table())
                .where(group.eq(w.bind(Param.of(Param.Kind.GROUP), group)))
                .and(unfinished)
                .orderBy(claimOrder(b))
                .limit(DSL.inline(1)));
    }

    /** A FIFO head may be taken when it is due, unfinished and (lease form) unleased. */
    Condition dueAndUnfinished(StatementWriter w, RoleBinding<?> b) {
        List<Condition> conditions = new ArrayList<>();
        b.column(Role.RETRY_AFTER).ifPresent(r -> conditions.add(typed(r).le(now(w, b, typed(r)))));
        b.column(Role.PROCESSED_AT).ifPresent(p -> conditions.add(unqualified(p).isNull()));
        if (b.form() == Form.LEASE) {
            Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
            conditions.add(lease.isNull().or(lease.le(now(w, b, lease))));
            conditions.add(notExists(leaseHeldInGroup(w, b)));
        }
        return DSL.and(conditions);
    }

    /**
     * A row of the claim's group whose lease still holds: while one is in work the group's head waits, even
     * where a row that came in ahead of it has become the head since.
     */
    org.jooq.Select<?> leaseHeldInGroup(StatementWriter w, RoleBinding<?> b) {
        Table<?> held = b.table().as("tq_held");
        Field<Object> group = heldColumn(b.column(Role.GROUP).orElseThrow());
        Field<Object> lease = heldColumn(b.column(Role.LEASE).orElseThrow());
        Condition unfinished = b.column(Role.PROCESSED_AT)
                .map(p -> heldColumn(p).isNull())
                .orElse(DSL.noCondition());
        return w.dsl().selectOne().from(held)
                .where(group.eq(w.bind(Param.of(Param.Kind.GROUP), group)))
                .and(unfinished)
                .and(lease.gt(now(w, b, lease)));
    }

    @SuppressWarnings("unchecked")
    private static Field<Object> heldColumn(Field<?> column) {
        return (Field<Object>) DSL.field(DSL.name("tq_held", column.getName()), column.getDataType());
    }

    /**
     * The lease claim. Where {@link #claimLeaseStamps()} is true it selects, stamps and returns the rows in one
     * statement; otherwise it selects and locks them, and the claim runs {@link #leaseStamp} on their ids in the
     * same transaction.
     */
    final Statement claimLease(RoleBinding<?> b, ClaimShape shape) {
        return claimLease(b, shape, writer());
    }

    /** The lease claim, written with {@code w}. */
    abstract Statement claimLease(RoleBinding<?> b, ClaimShape shape, StatementWriter w);

    /** Whether {@link #claimLease} writes the leases itself. */
    abstract boolean claimLeaseStamps();

    /**
     * Whether {@link #claimLease} returns its rows in claim order; where not, it returns each row's claim order
     * values after its columns, labelled {@code tq_order_0}, {@code tq_order_1}, .. ({@link
     * dev.tablequeue.internal.ClaimOrder}), and the claim sorts them. A FIFO lease claim, of one row, returns none.
     */
    boolean claimLeaseInOrder() {
        return true;
    }

    /**
     * Whether the row lock claim of {@code b} keeps, until its transaction ends, the lock of every row it read and
     * did not return ({@link StatementClaims.Behaviour#holdsRowsItPasses()}). False where a locking read holds
     * only the rows it returns.
     */
    boolean rowLockClaimHoldsRowsItPasses(RoleBinding<?> b) {
        return false;
    }

    /** The guard a FIFO claim runs first in its transaction, if the database needs one. */
    abstract Optional<FifoGuard> fifoGuard(RoleBinding<?> b);

    /** Writes the lease and counts the attempt of {@code count} rows a lease claim selected. */
    Statement leaseStamp(RoleBinding<?> b, int count) {
        StatementWriter w = writer();
        Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
        Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
        set.put(lease, w.bind(Param.of(Param.Kind.LEASE_UNTIL, lease), lease));
        b.column(Role.ATTEMPT).ifPresent(a -> set.put(typed(a), attemptPlusOne(a)));
        return w.statement("lease stamp", w.dsl().update(table(b)).set(set).where(typed(b.id()).in(ids(w, b, count))));
    }

    /** The extension of one row's lease from the time it holds to a later one, by id ({@link QueueClaims#extendLease}). */
    Statement leaseExtend(RoleBinding<?> b) {
        StatementWriter w = writer();
        Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
        Map<Field<?>, Field<?>> set = Map.of(lease, w.bind(Param.of(Param.Kind.LEASE_UNTIL, lease), lease));
        return w.statement("extend", w.dsl().update(table(b))
                .set(set)
                .where(idIs(w, b))
                .and(lease.eq(w.bind(Param.of(Param.Kind.LEASE_HELD, lease), lease))));
    }

    /** {@code count} id placeholders, for an IN list. */
    List<Field<Object>> ids(StatementWriter w, RoleBinding<?> b, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        List<Field<Object>> ids = new ArrayList<>(count);
        Field<Object> id = typed(b.id());
        for (int i = 0; i < count; i++) {
            ids.add(w.bind(Param.at(Param.Kind.ID, b.id(), i), id));
        }
        return ids;
    }

    /**
     * How this database bounds a session's wait for a row lock to {@code bound} ({@link QueueClaims#lockWait}): a
     * database that serves the row lock form has one; the default, for one that does not, refuses.
     */
    LockWait lockWait(RoleBinding<?> b, java.time.Duration bound) {
        throw new DialectException(name(), b.tableName(), "the row lock form needs a bound for a row lock wait, and"
                + " this dialect gives none");
    }

    /**
     * Reads {@code count} rows by id in {@code shape}: the fetch after the service's own claim, or after a take
     * that returns no rows; {@code stamped} reports the attempt as it was before a stamp counted it.
     */
    Statement fetchByIds(RoleBinding<?> b, ClaimShape shape, int count, boolean stamped) {
        StatementWriter w = writer();
        return w.statement("fetch", w.dsl().select(shape(b, shape, stamped))
                .from(b.table())
                .where(typed(b.id()).in(ids(w, b, count))));
    }
}
