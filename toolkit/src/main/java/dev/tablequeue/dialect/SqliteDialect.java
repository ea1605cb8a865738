package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import dev.tablequeue.internal.StatementWriter;
import dev.tablequeue.internal.SqliteKeyRegistry;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * SQLite 3.35 or later (for {@code RETURNING}), in the lease and advisory forms.
 *
 * <p>SQLite locks the whole database for a writer, so it has no row locks to hold rows for a handler: the
 * row lock form is refused, and no statement carries the {@code FOR UPDATE SKIP LOCKED} that jOOQ renders for
 * SQLite. One writer at a time is what keeps two claims apart instead. A lease claim is one {@code UPDATE}
 * whose {@code WHERE id IN (subquery)} picks the first claimable rows in claim order; the subquery carries
 * the {@code ORDER BY .. LIMIT}, so the statement needs no {@code UPDATE .. LIMIT} (a compile-time option of
 * SQLite). It runs alone in auto-commit, and its {@code RETURNING} reads each row as the statement wrote
 * it, hence {@code attempt - 1}; the rows come in no particular order, so it returns their claim order values
 * as well, and the runtime sorts them ({@link #claimLeaseInOrder()}).
 *
 * <p>Times are text in {@link SqliteTime}'s layout, fixed-width UTC with milliseconds, so comparing them as
 * text orders them in time: every time this dialect binds is formatted so, whatever the column's Java type,
 * and the database clock is {@link SqliteTime#NOW_SQL}.
 *
 * <p>Advisory keys live in the process ({@link SqliteKeyRegistry}), since SQLite has no session locks; the
 * candidates are the first due rows, and the runtime passes over those whose key is in work.
 *
 * <p>Transactions open with an explicit {@code BEGIN}: {@code BEGIN IMMEDIATE} unless the binding declares
 * another {@link SqliteMode}. A deferred transaction that reads and then writes must upgrade its lock, and
 * SQLite answers such an upgrade with {@code SQLITE_BUSY} at once, without waiting out the busy timeout,
 * where another writer got in first (in WAL mode, once another writer has committed since its read). A
 * transaction that takes the write lock at its start waits its turn in the busy timeout instead.
 */
public final class SqliteDialect extends JooqQueueDialect {
    private static final RowsTable ROWS = new SqliteRows();
    /** The opening of a binding that declares no mode. */
    public static final SqliteMode DEFAULT_MODE = SqliteMode.IMMEDIATE;

    private static final List<SqliteMode> OPENS = List.of(SqliteMode.values());

    /** {@code strftime} with one bound modifier, such as {@code '+12.345 seconds'}. */
    private static final String NOW_PLUS_SQL = SqliteTime.NOW_SQL.replace("'now')", "'now', {0})");

    /** The statements this dialect's runtime keeps on each driver connection ({@link #statementCache()}). */
    private final StatementCache statements = StatementCache.keptPerConnection();

    /** The name messages give this dialect. */
    private final String name;

    public SqliteDialect() {
        this("sqlite");
    }

    /**
     * SQLite's dialect under another name, for a database whose JDBC driver reports a product of its own but
     * runs SQLite's SQL and file format (a build or fork of SQLite, a driver that wraps sqlite-jdbc): every
     * statement and operation is this dialect's, and messages give {@code name}.
     */
    public SqliteDialect(String name) {
        super(SQLDialect.SQLITE);
        this.name = java.util.Objects.requireNonNull(name, "name");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean supportsForm(Form form) {
        return form != Form.ROW_LOCK;
    }

    @Override
    public void requireForm(RoleBinding<?> b) {
        if (b.form() == Form.ROW_LOCK) {
            throw new DialectException(name(), b.tableName(), "SQLite has no row locks, so a table cannot be"
                    + " taken in the row lock form; declare lease(..) or advisory(..)");
        }
    }

    @Override
    public void validate(RoleBinding<?> b) {
        requireForm(b);
        if (b.opening().orElse(null) instanceof Isolation level) {
            throw new DialectException(name(), b.tableName(), "SQLite runs every transaction serializable and"
                    + " takes no isolation level (" + level + "); declare sqliteMode(DEFERRED | IMMEDIATE |"
                    + " EXCLUSIVE) instead");
        }
        requireOpening(b, OPENS);
    }

    // ---- claims ----

    @Override
    Statement claimRowLock(RoleBinding<?> b, ClaimShape shape, StatementWriter w) {
        requireForm(b);
        throw new DialectException(name(), b.tableName(), "the \"claim\" statement is built for the row lock form"
                + " only, and this table is in the " + formName(b.form()) + " form");
    }

    @Override
    Statement claimLease(RoleBinding<?> b, ClaimShape shape, StatementWriter w) {
        requireForm(b, Form.LEASE, "lease claim");
        Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
        Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
        set.put(lease, w.bind(Param.of(Param.Kind.LEASE_UNTIL, lease), lease));
        b.column(Role.ATTEMPT).ifPresent(a -> set.put(typed(a), attemptPlusOne(a)));
        if (b.fifo()) {
            return w.statement("fifo lease claim", w.dsl().update(table(b))
                    .set(set)
                    .where(typed(b.id()).eq(fifoHead(w, b)))
                    .and(dueAndUnfinished(w, b))
                    .returning(shape(b, shape, true)));
        }
        return w.statement("lease claim", w.dsl().update(table(b))
                .set(set)
                .where(typed(b.id()).in(w.dsl()
                        .select(typed(b.id()))
                        .from(b.table())
                        .where(claimable(w, b))
                        .orderBy(claimOrder(b))
                        .limit(w.integer(Param.of(Param.Kind.LIMIT)))))
                .returning(withClaimOrder(b, shape(b, shape, true))));
    }

    @Override
    boolean claimLeaseStamps() {
        return true;
    }

    /** False: {@code UPDATE .. RETURNING} returns its rows in no particular order, and no subquery may read it. */
    @Override
    boolean claimLeaseInOrder() {
        return false;
    }

    /** None: one writer at a time, and a FIFO lease claim takes the head only while no lease holds it. */
    @Override
    Optional<FifoGuard> fifoGuard(RoleBinding<?> b) {
        return Optional.empty();
    }

    // ---- advisory form ----

    /** The first due rows with their key text; the keys in work live in the process, so none is left out here. */
    @Override
    Statement advisoryCandidates(RoleBinding<?> b, StatementWriter w) {
        requireForm(b, Form.ADVISORY, "advisory candidates");
        return w.statement("advisory candidates", w.dsl()
                .select(unqualified(b.id()), keyText(w, b).as("tq_key"))
                .from(b.table())
                .where(claimable(w, b))
                .orderBy(claimOrder(b))
                .limit(w.integer(Param.of(Param.Kind.LIMIT))));
    }

    /** Empty: the process keeps the keys ({@link SqliteKeyRegistry}). */
    @Override
    Optional<Statement> advisoryLock(RoleBinding<?> b) {
        return Optional.empty();
    }

    /** Empty: the process keeps the keys ({@link SqliteKeyRegistry}). */
    @Override
    Optional<Statement> advisoryUnlock(RoleBinding<?> b) {
        return Optional.empty();
    }

    @Override
    Statement advisoryTake(RoleBinding<?> b, ClaimShape shape) {
        requireForm(b, Form.ADVISORY, "advisory take");
        StatementWriter w = writer();
        Optional<Field<?>> attempt = b.column(Role.ATTEMPT);
        if (attempt.isEmpty()) {
            return w.statement("advisory take", w.dsl().select(shape(b, shape, false))
                    .from(b.table())
                    .where(idIs(w, b))
                    .and(claimable(w, b)));
        }
        Map<Field<?>, Field<?>> set = Map.of(typed(attempt.get()), attemptPlusOne(attempt.get()));
        return w.statement("advisory take", w.dsl().update(table(b))
                .set(set)
                .where(idIs(w, b))
                .and(claimable(w, b))
                .returning(shape(b, shape, true)));
    }

    @Override
    boolean advisoryTakeReturnsRows(RoleBinding<?> binding) {
        return true;
    }

    /** The keys of the database file {@code connection} reaches, in the process's {@link SqliteKeyRegistry}. */
    @Override
    Optional<ProcessKeys> processKeys(java.sql.Connection connection) throws SQLException {
        return Optional.of(SqliteKeyRegistry.process().keysOf(SqliteKeyRegistry.databaseOf(connection)));
    }

    /** The select as it is: SQLite has no {@code FOR UPDATE}, and a transaction opened here holds the write lock. */
    @Override
    Select<?> lockingRead(SelectForUpdateStep<?> select) {
        return select;
    }

    // ---- transactions ----

    /**
     * An explicit {@code BEGIN} in the binding's mode, {@link #DEFAULT_MODE} where it declares none: auto-commit
     * stays on and the transaction ends with {@code COMMIT} or {@code ROLLBACK}.
     */
    @Override
    public TransactionOpening transactionOpening(RoleBinding<?> b) {
        validate(b);
        SqliteMode mode = (SqliteMode) b.opening().orElse(DEFAULT_MODE);
        return new TransactionOpening(true, Optional.of("BEGIN " + mode.name()));
    }

    // ---- time ----

    @Override
    public Field<?> databaseNow() {
        return DSL.field(SqliteTime.NOW_SQL, SQLDataType.VARCHAR);
    }

    /** {@code strftime(.., 'now', ?)}, where the param is a modifier such as {@code '+12.345 seconds'}. */
    @Override
    RowsTable rowsTable() {
        return ROWS;
    }

    @Override
    Field<?> databaseNowPlus(StatementWriter w) {
        return DSL.field(NOW_PLUS_SQL, SQLDataType.VARCHAR, w.text(Param.of(Param.Kind.DELAY)));
    }

    /** The instant as text in {@link SqliteTime}'s layout, whatever the column's Java type. */
    @Override
    public Object timeValue(Field<?> column, Instant instant) {
        return SqliteTime.format(instant);
    }

    /** Reads the text of {@link SqliteTime}'s layout, whatever the column's Java type. */
    @Override
    public Instant readTime(ResultSet rs, int index, Field<?> column) throws SQLException {
        String text = rs.getString(index);
        return text == null ? null : SqliteTime.parse(text).toInstant();
    }

    /** A {@code strftime} modifier of whole milliseconds: {@code '+12.345 seconds'}. */
    @Override
    public Object delayValue(Duration delay) {
        BigDecimal seconds = BigDecimal.valueOf(delay.toMillis(), 3);
        return (seconds.signum() < 0 ? "" : "+") + seconds.toPlainString() + " seconds";
    }

    @Override
    public boolean claimsInParallel() {
        return false;
    }

    /** The driver compiles a statement each time it is prepared, and keeps none. */
    /**
     * Never a schema: a SQLite connection has one database (an attached one is named by its own alias, which no
     * class generated on another database carries), so a table generated as {@code public.order_jobs} on
     * PostgreSQL is {@code order_jobs} here, with no setting of the service's.
     */
    @Override
    Settings renderSettings() {
        return super.renderSettings().withRenderSchema(false);
    }

    /**
     * {@code INSERT .. RETURNING id} (SQLite 3.35 and later), run once per row: sqlite-jdbc reports no generated
     * keys for a batch, and a statement on the same file costs no round trip.
     */
    @Override
    Statement insertReturningId(RoleBinding<?> b) {
        StatementWriter w = writer();
        // jOOQ renders no RETURNING for SQLite (it emulates one when it runs the insert itself): it is written here
        return w.fromNamed("insert returning id", w.render(insertValues(w, b)) + " RETURNING "
                + w.render(unqualified(b.id())));
    }

    /**
     * The driver compiles a statement each time it is prepared and keeps none: this dialect keeps its statements
     * on each driver connection ({@link StatementCache#keptPerConnection()}).
     */
    @Override
    public StatementCache statementCache() {
        return statements;
    }

    private void requireForm(RoleBinding<?> b, Form form, String statement) {
        requireForm(b);
        if (b.form() != form) {
            throw new DialectException(name(), b.tableName(), "the \"" + statement + "\" statement is built for"
                    + " the " + formName(form) + " form only, and this table is in the " + formName(b.form())
                    + " form");
        }
    }

    private static String formName(Form form) {
        return form.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }

    @Override
    UniqueInsert uniqueInsert(RoleBinding<?> b) {
        return new ConflictTargetInsert(this, b, ConflictTargetInsert::compileFindsNone);
    }
}
