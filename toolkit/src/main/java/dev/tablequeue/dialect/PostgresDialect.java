package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.Opening;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.StatementWriter;
import dev.tablequeue.transport.LeadingInsert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Name;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.SQLDialect;
import org.jooq.SelectField;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * PostgreSQL 11 or later, in every form.
 *
 * <p>A lease claim is one statement: a CTE locks the claimable rows with {@code SKIP LOCKED}, the UPDATE
 * stamps them and returns them (the CTE runs once, so its LIMIT holds). Advisory locks and FIFO guards lock
 * a 64-bit {@code hashtextextended} of their key; two keys with one hash wait for each other, which delays a
 * row and never delivers it twice. A session lock belongs to the database it was taken in, so the advisory
 * candidates read only the current database's locks in {@code pg_locks}. A publish with a leading row writes
 * both rows in one statement, the leading one in a data-modifying CTE whose id the message's row reads.
 */
public final class PostgresDialect extends JooqQueueDialect {
    private static final RowsTable ROWS = new PgRows();
    /** Postgres keeps identifiers (and LISTEN channels) up to 63 bytes. */
    public static final int MAX_IDENTIFIER_BYTES = 63;

    private static final List<Isolation> OPENS =
            List.of(Isolation.READ_COMMITTED, Isolation.REPEATABLE_READ, Isolation.SERIALIZABLE);

    /** A notification's statement names no table: a copy that renders names otherwise ({@link #rendering}) shares it. */
    private final QueueNotifications notifications =
            new PostgresNotifications(this, channel -> PostgresNotifications.notification(writer(), channel));

    public PostgresDialect() {
        super(SQLDialect.POSTGRES);
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public boolean supportsForm(Form form) {
        return true;
    }

    @Override
    public void validate(RoleBinding<?> b) {
        requireForm(b);
        if (b.opening().orElse(null) == Isolation.READ_UNCOMMITTED) {
            throw new DialectException(name(), b.tableName(), "Postgres runs READ UNCOMMITTED as READ COMMITTED,"
                    + " so it is not opened; declare READ_COMMITTED");
        }
        requireOpening(b, OPENS);
        requireNameLength(b, MAX_IDENTIFIER_BYTES, true);
    }

    @Override
    Statement claimLease(RoleBinding<?> b, ClaimShape shape, StatementWriter w) {
        requireForm(b);
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
        CommonTableExpression<Record1<Object>> claimed = DSL.name("tq_claimed").fields("tq_id").as(w.dsl()
                .select(typed(b.id()))
                .from(b.table())
                .where(claimable(w, b))
                .orderBy(claimOrder(b))
                .limit(w.integer(Param.of(Param.Kind.LIMIT)))
                .forUpdate()
                .skipLocked());
        Field<Object> claimedId = DSL.field(DSL.name("tq_claimed", "tq_id"));
        List<SelectField<?>> returned = shape(b, shape, true);
        // UPDATE .. RETURNING returns rows in the order the update met them: the main query puts them in claim order
        CommonTableExpression<?> leased = DSL.name("tq_leased").as(w.dsl()
                .update(table(b))
                .set(set)
                .from(claimed)
                .where(DSL.field(DSL.name(b.table().getName(), b.id().getName())).eq(claimedId))
                .returning(withClaimOrder(b, returned)));
        return w.statement("lease claim", w.dsl().with(claimed, leased)
                .select(returned.stream().map(f -> DSL.field(DSL.name("tq_leased", f.getName()))).toList())
                .from(leased)
                .orderBy(byClaimOrderValues(b, "tq_leased")));
    }

    @Override
    boolean claimLeaseStamps() {
        return true;
    }

    /**
     * A text per limit: the server plans a bound limit at a tenth of the table, and so planned the claim again at
     * every execution; with the number written in, each limit keeps one plan on a connection.
     */
    @Override
    ClaimTexts claimTexts(Function<StatementWriter, Statement> build) {
        return ClaimTexts.written(writer(), build);
    }

    @Override
    Optional<FifoGuard> fifoGuard(RoleBinding<?> b) {
        if (!b.fifo() || b.form() != Form.ROW_LOCK) {
            // A lease claim takes the head only while no lease holds it; the UPDATE's row lock orders claims.
            return Optional.empty();
        }
        StatementWriter w = writer();
        Field<String> key = DSL.concat(
                w.text(Param.constant(b.tableName() + ":")),
                w.text(Param.of(Param.Kind.GROUP)));
        return Optional.of(new FifoGuard(w.statement("fifo guard", w.dsl().select(
                DSL.field("pg_try_advisory_xact_lock(hashtextextended({0}, 0))", SQLDataType.BOOLEAN, key))),
                true));
    }

    /**
     * {@code WITH tq_held_keys AS (the advisory locks granted in this database, from pg_locks) SELECT id, key
     * FROM the table WHERE claimable AND NOT EXISTS (the row's key among tq_held_keys) ORDER BY claim order
     * LIMIT ?}. The server's lock table is read once per statement: the CTE reads a volatile function, so the
     * planner keeps it apart and materializes it. Read in the anti-join instead, it was read once for every
     * row the scan passed, each read taking every partition lock of the server's lock manager; on a large
     * table a claim for many rows was also planned to run on parallel workers, whose start cost more than the
     * claim.
     */
    @Override
    Statement advisoryCandidates(RoleBinding<?> b, StatementWriter w) {
        requireForm(b);
        Field<String> key = keyText(w, b);
        // a session lock belongs to its database: one of another database on the server holds nothing here
        Table<?> held = DSL.table(DSL.name("tq_held_keys"));
        Condition unheld = notExists(DSL.selectOne().from(held).where(DSL.condition(
                "\"tq_held_keys\".\"classid\" = ((hashtextextended({0}, 0) >> 32) & 4294967295)::oid"
                + " and \"tq_held_keys\".\"objid\" = (hashtextextended({1}, 0) & 4294967295)::oid", key,
                keyText(w, b))));
        return w.statement("advisory candidates", w.dsl()
                .with(DSL.name("tq_held_keys").as(DSL.select(DSL.field(DSL.name("tq_l", "classid")),
                                DSL.field(DSL.name("tq_l", "objid")))
                        .from(DSL.table("pg_catalog.pg_locks").as("tq_l"))
                        .where(DSL.condition("\"tq_l\".\"locktype\" = 'advisory' and \"tq_l\".\"objsubid\" = 1"
                                + " and \"tq_l\".\"granted\" and \"tq_l\".\"database\" = (select oid from"
                                + " pg_catalog.pg_database where datname = current_database())"))))
                .select(unqualified(b.id()), key.as("tq_key"))
                .from(b.table())
                .where(claimable(w, b))
                .and(unheld)
                .orderBy(claimOrder(b))
                .limit(w.integer(Param.of(Param.Kind.LIMIT))));
    }

    @Override
    Optional<Statement> advisoryLock(RoleBinding<?> b) {
        return Optional.of(keyFunction("advisory lock", "pg_try_advisory_lock"));
    }

    @Override
    Optional<Statement> advisoryUnlock(RoleBinding<?> b) {
        return Optional.of(keyFunction("advisory unlock", "pg_advisory_unlock"));
    }

    private Statement keyFunction(String purpose, String function) {
        StatementWriter w = writer();
        Field<String> key = w.text(Param.of(Param.Kind.KEY));
        return w.statement(purpose, w.dsl().select(
                DSL.field(function + "(hashtextextended({0}, 0))", SQLDataType.BOOLEAN, key)));
    }

    @Override
    Statement advisoryTake(RoleBinding<?> b, ClaimShape shape) {
        requireForm(b);
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
    boolean advisoryTakeReturnsRows(RoleBinding<?> b) {
        return true;
    }

    /** The statements that take a row and its key together, rendered as this dialect (or its copy) renders. */
    private PostgresKeyStatements keys() {
        return new PostgresKeyStatements(this);
    }

    @Override
    Optional<Statement> advisoryLockAndTake(RoleBinding<?> b, ClaimShape shape) {
        return Optional.of(keys().lockAndTake(b, shape));
    }

    /** The walk ({@link PostgresKeyStatements#walk}); none where a NULL priority would stop the row comparison. */
    @Override
    Optional<Statement> advisoryWalk(RoleBinding<?> b, ClaimShape shape) {
        return keys().walk(b, shape);
    }

    @Override
    public Optional<Statement> advisorySettleAndWalk(RoleBinding<?> b, Statement outcome, ClaimShape shape) {
        return keys().settleAndWalk(b, outcome, shape);
    }

    @Override
    public Optional<Statement> advisorySettleAndUnlock(RoleBinding<?> b, Statement outcome) {
        return Optional.of(keys().settleAndUnlock(outcome));
    }

    @Override
    public TransactionOpening transactionOpening(RoleBinding<?> b) {
        Opening level = b.opening().orElse(null);
        if (level == null) {
            return TransactionOpening.DEFAULT;
        }
        validate(b);
        return new TransactionOpening(false,
                Optional.of("SET TRANSACTION ISOLATION LEVEL " + ((Isolation) level).sql()));
    }

    /**
     * {@code WITH tq_leading AS (INSERT .. RETURNING id), tq_message AS (INSERT .. SELECT .. FROM tq_leading
     * RETURNING id) SELECT tq_leading.id, (SELECT id FROM tq_message) FROM tq_leading}: PostgreSQL runs every data-modifying CTE once, whether the query reads it or
     * not, so the two rows are one round trip and one statement's success or failure. The id goes into the
     * header's own column, or is merged as text into the headers column's JSON object (replacing an id header
     * the message carried).
     */
    @Override
    Statement insertWith(RoleBinding<?> b, LeadingInsert leading) {
        Field<?> idColumn = b.headerFields().stream().filter(f -> f.getName().equals(leading.idHeader()))
                .findFirst().orElse(null);
        Field<?> headers = b.column(Role.HEADERS).orElse(null);
        if (idColumn == null && headers == null) {
            return null;
        }
        StatementWriter w = writer();
        List<Field<?>> columns = b.insertColumns();
        List<Field<?>> leadColumns = new ArrayList<>();
        List<Field<?>> leadValues = new ArrayList<>();
        for (int j = 0; j < leading.columns().size(); j++) {
            Field<?> c = leading.columns().get(j);
            leadColumns.add(unqualified(c));
            leadValues.add(w.bind(Param.at(Param.Kind.VALUE, c, columns.size() + j), typed(c)));
        }
        Name lead = DSL.name("tq_leading");
        Field<Object> leadId = DSL.field(DSL.name("tq_leading", "tq_id"));
        @SuppressWarnings("unchecked") // the leading table's record type is the service's; the insert names columns
        CommonTableExpression<?> leadRow = lead.fields("tq_id").as(w.dsl()
                .insertInto((Table<Record>) leading.table()).columns(leadColumns).values(leadValues)
                .returningResult(typed(leading.id())));
        List<Field<?>> into = new ArrayList<>(columns.size());
        List<Field<?>> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            Field<?> c = columns.get(i);
            into.add(unqualified(c));
            if (c.equals(idColumn)) {
                values.add(leadId.cast(c.getDataType()));
            } else if (c.equals(headers)) {
                values.add(DSL.field("(coalesce(cast({0} as jsonb), jsonb_build_object()) || jsonb_build_object({1},"
                        + " cast({2} as text)))", SQLDataType.JSONB, w.bind(Param.at(Param.Kind.VALUE, c, i),
                        SQLDataType.VARCHAR), DSL.inline(leading.idHeader()), leadId).cast(c.getDataType()));
            } else {
                values.add(w.bind(Param.at(Param.Kind.VALUE, c, i), typed(c)));
            }
        }
        CommonTableExpression<?> messageRow = DSL.name("tq_message").fields("tq_id").as(w.dsl()
                .insertInto(table(b)).columns(into).select(w.dsl().select(values).from(lead))
                .returningResult(typed(b.id())));
        Field<Object> messageId = DSL.field(w.dsl().select(DSL.field(DSL.name("tq_message", "tq_id")))
                .from(DSL.name("tq_message")));
        return w.statement("insert with leading row", w.dsl().with(leadRow, messageRow)
                .select(leadId, messageId).from(lead));
    }

    @Override
    public QueueNotifications notifications() {
        return notifications;
    }

    /**
     * A lease table at REPEATABLE READ or SERIALIZABLE: the acknowledgement, written in the delivery's
     * transaction, updates a row whose lease the keeper extends meanwhile in transactions of its own, and
     * Postgres fails such an update at those levels with a serialization error.
     */
    @Override
    public Optional<String> refuseTransactional(RoleBinding<?> b) {
        if (b.form() == Form.LEASE && (b.opening().orElse(null) == Isolation.REPEATABLE_READ
                || b.opening().orElse(null) == Isolation.SERIALIZABLE)) {
            Isolation level = (Isolation) b.opening().get();
            return Optional.of("transactional() in the lease form on Postgres needs READ COMMITTED, and table \""
                    + b.tableName() + "\" declares " + level.sql() + ": the acknowledgement updates the row in the"
                    + " delivery's transaction after the lease keeper has extended it in another, which Postgres"
                    + " refuses at that level with a serialization error; declare READ COMMITTED (or none), or"
                    + " mount without transactional()");
        }
        return Optional.empty();
    }

    /** {@code lock_timeout}, in milliseconds; a statement past it fails with SQLSTATE 55P03 (lock_not_available). */
    @Override
    LockWait lockWait(RoleBinding<?> b, java.time.Duration bound) {
        return new LockWait("SET lock_timeout = " + Math.max(1, bound.toMillis()), "RESET lock_timeout",
                e -> "55P03".equals(e.getSQLState()));
    }

    @Override
    RowsTable rowsTable() {
        return ROWS;
    }

    @Override
    public Field<?> databaseNow() {
        return DSL.field("statement_timestamp()", SQLDataType.TIMESTAMPWITHTIMEZONE);
    }

    @Override
    Field<?> databaseNowPlus(StatementWriter w) {
        Field<Double> seconds = w.bind(Param.of(Param.Kind.DELAY), SQLDataType.DOUBLE);
        return DSL.field("(statement_timestamp() + make_interval(secs => {0}))",
                SQLDataType.TIMESTAMPWITHTIMEZONE, seconds);
    }

    @Override
    public Object delayValue(Duration delay) {
        return delay.toNanos() / 1_000_000_000.0;
    }

    @Override
    UniqueInsert uniqueInsert(RoleBinding<?> b) {
        return new ConflictTargetInsert(this, b, ConflictTargetInsert::explainFindsNone);
    }
}
