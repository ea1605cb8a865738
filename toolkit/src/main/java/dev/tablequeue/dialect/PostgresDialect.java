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
    Statement claimLease(RoleBinding<?> b, ClaimShape shape) {
        requireForm(b);
        StatementWriter w = writer();
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
    public Statement advisoryCandidates(RoleBinding<?> b) {
        requireForm(b);
        StatementWriter w = writer();
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
    public Optional<Statement> advisoryLock(RoleBinding<?> b) {
        return Optional.of(keyFunction("advisory lock", "pg_try_advisory_lock"));
    }

    @Override
    public Optional<Statement> advisoryUnlock(RoleBinding<?> b) {
        return Optional.of(keyFunction("advisory unlock", "pg_advisory_unlock"));
    }

    private Statement keyFunction(String purpose, String function) {
        StatementWriter w = writer();
        Field<String> key = w.text(Param.of(Param.Kind.KEY));
        return w.statement(purpose, w.dsl().select(
                DSL.field(function + "(hashtextextended({0}, 0))", SQLDataType.BOOLEAN, key)));
    }

    @Override
    public Statement advisoryTake(RoleBinding<?> b, ClaimShape shape) {
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
    public boolean advisoryTakeReturnsRows(RoleBinding<?> b) {
        return true;
    }

    /**
     * {@code WITH tq_lock AS (SELECT pg_try_advisory_lock(..)), tq_taken AS (the take, where tq_lock locked),
     * tq_back AS (SELECT pg_advisory_unlock(..) where it locked and took nothing) SELECT * FROM tq_taken}. The
     * lock is one row of a CTE, so it is tried exactly once; the main query's one-time filter reads
     * {@code tq_back}, whose {@code NOT EXISTS} runs the take to its end first, so a key is released only once
     * its row is known not to be taken. The take is an UPDATE (or, on a table without an attempt column, a
     * {@code SELECT .. FOR UPDATE}): at READ COMMITTED it waits for a write to the row that has not committed
     * yet and judges the row as that write left it, so a row settled after the statement began is left.
     */
    @Override
    public Optional<Statement> advisoryLockAndTake(RoleBinding<?> b, ClaimShape shape) {
        requireForm(b);
        StatementWriter w = writer();
        String lock = w.render(keyCall(w, "pg_try_advisory_lock"));
        Condition locked = DSL.condition(DSL.field(DSL.name("tq_lock", "tq_locked"), SQLDataType.BOOLEAN));
        Optional<Field<?>> attempt = b.column(Role.ATTEMPT);
        String take;
        if (attempt.isEmpty()) {
            take = w.render(w.dsl().select(shape(b, shape, false))
                    .from(b.table(), DSL.table(DSL.name("tq_lock")))
                    .where(locked)
                    .and(idIs(w, b))
                    .and(claimable(w, b)))
                    + " for update of " + w.render(DSL.name(b.table().getName()));
        } else {
            take = w.render(w.dsl().update(table(b))
                    .set(Map.of(typed(attempt.get()), attemptPlusOne(attempt.get())))
                    .from(DSL.table(DSL.name("tq_lock")))
                    .where(locked)
                    .and(idIs(w, b))
                    .and(claimable(w, b))
                    .returning(shape(b, shape, true)));
        }
        String unlock = w.render(keyCall(w, "pg_advisory_unlock"));
        return Optional.of(w.fromNamed("advisory lock and take", "with \"tq_lock\" as (select " + lock
                + " as \"tq_locked\"), \"tq_taken\" as (" + take + "), \"tq_back\" as (select " + unlock
                + " from \"tq_lock\" where \"tq_locked\" and not exists (select 1 from \"tq_taken\"))"
                + " select * from \"tq_taken\" where (select count(*) from \"tq_back\") >= 0"));
    }

    /**
     * The most rows one walk tries before it gives up and takes nothing: each costs an index step, so many due
     * rows of keys held elsewhere would otherwise make every walk long; the runtime then reads candidates.
     */
    public static final int WALK_STEPS = 64;

    /**
     * {@code WITH RECURSIVE tq_walk AS (the first claimable row in claim order and a try of its key's lock,
     * UNION ALL the next claimable row after the last one tried, while its try failed), tq_held AS (the row
     * whose key it locked), tq_taken AS (that row's take), tq_back AS (the key's release where the take took
     * nothing), tq_state AS (whether it locked a key, whether it gave up, the release read) SELECT the row
     * taken and its key, or NULLs, with the state}. Each step reads one row through the claim order's index and
     * tries one key, in an outer query over a subquery with its LIMIT, so a key is tried only for a row the
     * walk reached and the walk ends at the first key locked; a key held elsewhere (a row in work, or another
     * row of its key in work) is passed over, and so is the key of a row whose settlement has not committed
     * ({@link #advisorySettleAndUnlock} keeps it until then). The take and the release are {@link
     * #advisoryLockAndTake}'s, so a row settled after the walk began is judged as its settlement left it.
     * The walk compares the claim order as a row value, which a NULL priority would stop: a binding whose
     * priority column may be NULL gets no walk and reads candidates first. It tries at most {@link #WALK_STEPS}
     * rows.
     */
    @Override
    public Optional<Statement> advisoryWalk(RoleBinding<?> b, ClaimShape shape) {
        requireForm(b);
        if (!walks(b)) {
            return Optional.empty();
        }
        StatementWriter w = writer();
        return Optional.of(w.fromNamed("advisory walk", "with recursive " + walkSteps(w, b, shape, false) + ", "
                + walkState("") + " select \"tq_taken\".*, \"tq_state\".\"tq_locked\", \"tq_state\".\"tq_cut\""
                + " from \"tq_state\" left join \"tq_taken\" on true where \"tq_state\".\"tq_released\" >= 0"));
    }

    /** Whether the claim order can be walked: not where a NULL priority would stop the row comparison. */
    private static boolean walks(RoleBinding<?> b) {
        return !b.column(Role.PRIORITY).map(p -> p.getDataType().nullable()).orElse(false);
    }

    /**
     * The walk's CTEs, {@code tq_walk, tq_held, tq_taken, tq_back} (see {@link #advisoryWalk}), with named
     * placeholders; where {@code passOverSettled}, every row read has another id than the bound one.
     */
    private String walkSteps(StatementWriter w, RoleBinding<?> b, ClaimShape shape, boolean passOverSettled) {
        Condition walked = passOverSettled ? passingOver(w, b) : claimable(w, b);
        List<Field<?>> order = claimOrderColumns(b);
        List<Field<?>> tried = new ArrayList<>();
        List<Field<?>> last = new ArrayList<>();
        StringBuilder next = new StringBuilder();
        for (Field<?> column : order) {
            tried.add(unqualified(column));
            last.add(DSL.field(DSL.name("tq_walk", column.getName())));
            next.append(w.render(DSL.name("tq_next", column.getName()))).append(", ");
        }
        List<Field<?>> read = new ArrayList<>(tried);
        read.add(keyText(w, b).as("tq_key"));
        String first = w.render(w.dsl().select(read)
                .from(b.table())
                .where(walked)
                .orderBy(claimOrder(b))
                .limit(DSL.inline(1)));
        Condition walkedNext = passOverSettled ? passingOver(w, b) : claimable(w, b);
        List<Field<?>> readNext = new ArrayList<>(tried);
        readNext.add(keyText(w, b).as("tq_key"));
        String after = w.render(w.dsl().select(readNext)
                .from(b.table())
                .where(walkedNext)
                .and(DSL.row(tried).gt(DSL.row(last)))
                .orderBy(claimOrder(b))
                .limit(DSL.inline(1)));
        StringBuilder firstColumns = new StringBuilder();
        for (Field<?> column : order) {
            firstColumns.append(w.render(DSL.name(column.getName()))).append(", ");
        }
        Condition held = DSL.field(DSL.name(b.table().getName(), b.id().getName()))
                .eq(DSL.field(DSL.name("tq_held", "tq_id")));
        Field<?> heldKey = DSL.field(DSL.name("tq_held", "tq_key"));
        Optional<Field<?>> attempt = b.column(Role.ATTEMPT);
        String take;
        if (attempt.isEmpty()) {
            List<org.jooq.SelectField<?>> taken = new ArrayList<>(shape(b, shape, false));
            taken.add(heldKey);
            take = w.render(w.dsl().select(taken)
                    .from(b.table())
                    .join(DSL.table(DSL.name("tq_held"))).on(held)
                    .where(claimable(w, b)))
                    + " for update of " + w.render(DSL.name(b.table().getName()));
        } else {
            List<org.jooq.SelectField<?>> taken = new ArrayList<>(shape(b, shape, true));
            taken.add(heldKey);
            take = w.render(w.dsl().update(table(b))
                    .set(Map.of(typed(attempt.get()), attemptPlusOne(attempt.get())))
                    .from(DSL.table(DSL.name("tq_held")))
                    .where(held)
                    .and(claimable(w, b))
                    .returning(taken));
        }
        String id = w.render(DSL.name(b.id().getName()));
        return "\"tq_walk\" as ((select " + firstColumns
                + "\"tq_key\", pg_try_advisory_lock(hashtextextended(\"tq_key\", 0)) as \"tq_locked\", 1 as \"tq_step\""
                + " from (" + first + ") as \"tq_first\") union all (select " + next + "\"tq_next\".\"tq_key\","
                + " pg_try_advisory_lock(hashtextextended(\"tq_next\".\"tq_key\", 0)), \"tq_walk\".\"tq_step\" + 1"
                + " from \"tq_walk\" cross join lateral (" + after + ") as \"tq_next\" where not \"tq_walk\".\"tq_locked\""
                + " and \"tq_walk\".\"tq_step\" < " + WALK_STEPS + ")),"
                + " \"tq_held\" as (select " + id + " as \"tq_id\", \"tq_key\" from \"tq_walk\" where \"tq_locked\""
                + " limit 1), \"tq_taken\" as (" + take + "), \"tq_back\" as (select"
                + " pg_advisory_unlock(hashtextextended(\"tq_key\", 0)) from \"tq_held\" where not exists"
                + " (select 1 from \"tq_taken\"))";
    }

    /**
     * What a settlement's walk tries: a claimable row but the settled one, whose key is none of those the
     * subscription's other deliveries in work hold ({@link Param.Kind#HELD_KEYS}, an array of text; empty
     * where it holds none). Those keys are held by sessions of the same process, so the walk could not lock
     * them: it passes over their rows in the index scan instead of trying each, one step of the walk and one
     * try of a lock apiece.
     */
    private Condition passingOver(StatementWriter w, RoleBinding<?> b) {
        return claimable(w, b).and(DSL.not(idIs(w, b)))
                .and(DSL.condition("{0} <> all(cast({1} as text[]))", keyText(w, b),
                        w.text(Param.of(Param.Kind.HELD_KEYS))));
    }

    /**
     * {@code tq_state}: whether the walk locked a key, whether it gave up, and the count of its release (which
     * the main query reads, so the release runs), then {@code more} columns.
     */
    private static String walkState(String more) {
        return "\"tq_state\" as (select exists (select 1 from \"tq_held\") as"
                + " \"tq_locked\", exists (select 1 from \"tq_walk\" where \"tq_walk\".\"tq_step\" >= " + WALK_STEPS
                + " and not \"tq_walk\".\"tq_locked\") as \"tq_cut\", (select count(*) from \"tq_back\") as"
                + " \"tq_released\"" + more + ")";
    }

    /**
     * {@code WITH RECURSIVE tq_settled AS (outcome RETURNING 1), tq_release AS (the release of
     * {@link #advisorySettleAndUnlock}), the walk's CTEs passing over the settled row, tq_state AS (the walk's
     * state and the release's result) SELECT the row taken, or NULLs, with the state}. The outcome's key is
     * handed to the transaction as {@link #advisorySettleAndUnlock} hands it, so it comes free when the
     * outcome commits. The walk reads the table as the statement began, where the settled row is still
     * unsettled: it passes over that row by its id. Where the walk's next row shares the settled row's key,
     * the session's own hold lets it lock the key again, and the key stays held for that row.
     */
    @Override
    public Optional<Statement> advisorySettleAndWalk(RoleBinding<?> b, Statement outcome, ClaimShape shape) {
        requireForm(b);
        if (!walks(b)) {
            return Optional.empty();
        }
        StatementWriter w = writer();
        Statement walk = w.fromNamed("walk", walkSteps(w, b, shape, true) + ", " + walkState(", (select"
                + " bool_and(\"tq_u\") from \"tq_release\") as \"tq_unlocked\"") + " select \"tq_taken\".*,"
                + " \"tq_state\".\"tq_locked\", \"tq_state\".\"tq_cut\", \"tq_state\".\"tq_unlocked\" from"
                + " \"tq_state\" left join \"tq_taken\" on true where \"tq_state\".\"tq_released\" >= 0");
        List<Param> params = new ArrayList<>(outcome.params());
        params.add(Param.of(Param.Kind.KEY));
        params.addAll(walk.params());
        return Optional.of(new Statement(outcome.purpose() + ", unlock and walk", "with recursive \"tq_settled\" as ("
                + outcome.sql() + " returning 1), \"tq_release\" as (select pg_advisory_unlock(\"tq_kept\".\"tq_k\")"
                + " as \"tq_u\" from (select \"tq_k\", pg_try_advisory_xact_lock(\"tq_k\") as \"tq_x\" from (select"
                + " hashtextextended(?, 0) as \"tq_k\" from (select count(*) from \"tq_settled\") as \"tq_written\")"
                + " as \"tq_key\") as \"tq_kept\"), " + walk.sql(), params));
    }

    /**
     * {@code WITH tq_settled AS (outcome RETURNING 1) SELECT pg_advisory_unlock(k) FROM (SELECT k,
     * pg_try_advisory_xact_lock(k) FROM (SELECT k FROM (SELECT count(*) FROM tq_settled)))}: the count reads
     * the outcome to its end; the one row it yields takes the key again for the transaction (the session's own
     * hold lets it, without waiting), then releases the session's hold. The key so stays held until the
     * outcome commits, or rolls back, and comes free then: no other session can lock it while the outcome is
     * not yet visible. (In auto-commit the statement is its own transaction.)
     */
    @Override
    public Optional<Statement> advisorySettleAndUnlock(RoleBinding<?> b, Statement outcome) {
        List<Param> params = new ArrayList<>(outcome.params());
        params.add(Param.of(Param.Kind.KEY));
        return Optional.of(new Statement(outcome.purpose() + " and unlock", "with \"tq_settled\" as ("
                + outcome.sql() + " returning 1) select pg_advisory_unlock(\"tq_kept\".\"tq_k\") from (select"
                + " \"tq_k\", pg_try_advisory_xact_lock(\"tq_k\") as \"tq_x\" from (select hashtextextended(?, 0)"
                + " as \"tq_k\" from (select count(*) from \"tq_settled\") as \"tq_written\") as \"tq_key\") as"
                + " \"tq_kept\"", params));
    }

    /** {@code function(hashtextextended(?key, 0))}. */
    private static Field<Boolean> keyCall(StatementWriter w, String function) {
        return DSL.field(function + "(hashtextextended({0}, 0))", SQLDataType.BOOLEAN,
                w.text(Param.of(Param.Kind.KEY)));
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
    public Optional<Statement> insertWith(RoleBinding<?> b, LeadingInsert leading) {
        Field<?> idColumn = b.headerFields().stream().filter(f -> f.getName().equals(leading.idHeader()))
                .findFirst().orElse(null);
        Field<?> headers = b.column(Role.HEADERS).orElse(null);
        if (idColumn == null && headers == null) {
            return Optional.empty();
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
        return Optional.of(w.statement("insert with leading row", w.dsl().with(leadRow, messageRow)
                .select(leadId, messageId).from(lead)));
    }

    @Override
    public Optional<Statement> notify(String channel) {
        StatementWriter w = writer();
        return Optional.of(w.statement("notify", w.dsl().select(DSL.field("pg_notify({0}, {1})", SQLDataType.VARCHAR,
                w.text(Param.constant(channel)), w.text(Param.of(Param.Kind.GROUP))))));
    }

    @Override
    public boolean supportsNotify() {
        return true;
    }

    /** Where a channel name is over the 63 bytes PostgreSQL keeps of an identifier. */
    @Override
    public Optional<String> refuseChannel(String channel) {
        int bytes = channel.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        return bytes > MAX_IDENTIFIER_BYTES
                ? Optional.of("the notification channel \"" + channel + "\" is " + bytes
                        + " bytes; Postgres keeps channel names up to " + MAX_IDENTIFIER_BYTES)
                : Optional.empty();
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
    public Optional<LockWait> lockWait(java.time.Duration bound) {
        return Optional.of(new LockWait("SET lock_timeout = " + Math.max(1, bound.toMillis()), "RESET lock_timeout",
                e -> "55P03".equals(e.getSQLState())));
    }

    /** LISTEN on each channel, then pgjdbc's {@code getNotifications}; the driver is an optional dependency. */
    @Override
    public Notifications listen(java.sql.Connection connection, java.util.Collection<String> channels)
            throws java.sql.SQLException {
        return PgNotifications.listen(connection, channels);
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
    public Optional<UniqueInsert> uniqueInsert(RoleBinding<?> b) {
        return Optional.of(new ConflictTargetInsert(this, b, ConflictTargetInsert::explainFindsNone));
    }
}
