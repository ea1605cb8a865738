package dev.tablequeue.dialect;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.StatementWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * PostgreSQL's statements that take a row and its advisory key together: the lock and take of one candidate,
 * the walk that locks the first free key in claim order and takes its row, and an outcome that releases its
 * key when it commits, alone or walking on to the next row. Each is one statement of CTEs, so one round trip
 * does what would otherwise be two or three.
 */
final class PostgresKeyStatements {
    private final PostgresDialect d;

    PostgresKeyStatements(PostgresDialect d) {
        this.d = d;
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
    Statement lockAndTake(RoleBinding<?> b, ClaimShape shape) {
        d.requireForm(b);
        StatementWriter w = d.writer();
        String lock = w.render(keyCall(w, "pg_try_advisory_lock"));
        Condition locked = DSL.condition(DSL.field(DSL.name("tq_lock", "tq_locked"), SQLDataType.BOOLEAN));
        Optional<Field<?>> attempt = b.column(Role.ATTEMPT);
        String take;
        if (attempt.isEmpty()) {
            take = w.render(w.dsl().select(d.shape(b, shape, false))
                    .from(b.table(), DSL.table(DSL.name("tq_lock")))
                    .where(locked)
                    .and(d.idIs(w, b))
                    .and(d.claimable(w, b)))
                    + " for update of " + w.render(DSL.name(b.table().getName()));
        } else {
            take = w.render(w.dsl().update(JooqPieces.table(b))
                    .set(Map.of(JooqPieces.typed(attempt.get()), d.attemptPlusOne(attempt.get())))
                    .from(DSL.table(DSL.name("tq_lock")))
                    .where(locked)
                    .and(d.idIs(w, b))
                    .and(d.claimable(w, b))
                    .returning(d.shape(b, shape, true)));
        }
        String unlock = w.render(keyCall(w, "pg_advisory_unlock"));
        return w.fromNamed("advisory lock and take", "with \"tq_lock\" as (select " + lock
                + " as \"tq_locked\"), \"tq_taken\" as (" + take + "), \"tq_back\" as (select " + unlock
                + " from \"tq_lock\" where \"tq_locked\" and not exists (select 1 from \"tq_taken\"))"
                + " select * from \"tq_taken\" where (select count(*) from \"tq_back\") >= 0");
    }

    /**
     * The most rows one walk tries before it gives up and takes nothing: each costs an index step, so many due
     * rows of keys held elsewhere would otherwise make every walk long; the runtime then reads candidates.
     */
    static final int WALK_STEPS = 64;

    /**
     * {@code WITH RECURSIVE tq_walk AS (the first claimable row in claim order and a try of its key's lock,
     * UNION ALL the next claimable row after the last one tried, while its try failed), tq_held AS (the row
     * whose key it locked), tq_taken AS (that row's take), tq_back AS (the key's release where the take took
     * nothing), tq_state AS (whether it locked a key, whether it gave up, the release read) SELECT the row
     * taken and its key, or NULLs, with the state}. Each step reads one row through the claim order's index and
     * tries one key, in an outer query over a subquery with its LIMIT, so a key is tried only for a row the
     * walk reached and the walk ends at the first key locked; a key held elsewhere (a row in work, or another
     * row of its key in work) is passed over, and so is the key of a row whose settlement has not committed
     * ({@link #settleAndUnlock} keeps it until then). The take and the release are {@link
     * #lockAndTake}'s, so a row settled after the walk began is judged as its settlement left it.
     * The walk compares the claim order as a row value, which a NULL priority would stop: a binding whose
     * priority column may be NULL gets no walk and reads candidates first. It tries at most {@link #WALK_STEPS}
     * rows.
     */
    Optional<Statement> walk(RoleBinding<?> b, ClaimShape shape) {
        d.requireForm(b);
        if (!walks(b)) {
            return Optional.empty();
        }
        StatementWriter w = d.writer();
        return Optional.of(w.fromNamed("advisory walk", "with recursive " + walkSteps(w, b, shape, false) + ", "
                + walkState("") + " select \"tq_taken\".*, \"tq_state\".\"tq_locked\", \"tq_state\".\"tq_cut\""
                + " from \"tq_state\" left join \"tq_taken\" on true where \"tq_state\".\"tq_released\" >= 0"));
    }

    /** Whether the claim order can be walked: not where a NULL priority would stop the row comparison. */
    private static boolean walks(RoleBinding<?> b) {
        return !b.column(Role.PRIORITY).map(p -> p.getDataType().nullable()).orElse(false);
    }

    /**
     * The walk's CTEs, {@code tq_walk, tq_held, tq_taken, tq_back} (see {@link #walk}), with named
     * placeholders; where {@code passOverSettled}, every row read has another id than the bound one.
     */
    private String walkSteps(StatementWriter w, RoleBinding<?> b, ClaimShape shape, boolean passOverSettled) {
        Condition walked = passOverSettled ? passingOver(w, b) : d.claimable(w, b);
        List<Field<?>> order = d.claimOrderColumns(b);
        List<Field<?>> tried = new ArrayList<>();
        List<Field<?>> last = new ArrayList<>();
        StringBuilder next = new StringBuilder();
        for (Field<?> column : order) {
            tried.add(JooqPieces.unqualified(column));
            last.add(DSL.field(DSL.name("tq_walk", column.getName())));
            next.append(w.render(DSL.name("tq_next", column.getName()))).append(", ");
        }
        List<Field<?>> read = new ArrayList<>(tried);
        read.add(d.keyText(w, b).as("tq_key"));
        String first = w.render(w.dsl().select(read)
                .from(b.table())
                .where(walked)
                .orderBy(d.claimOrder(b))
                .limit(DSL.inline(1)));
        Condition walkedNext = passOverSettled ? passingOver(w, b) : d.claimable(w, b);
        List<Field<?>> readNext = new ArrayList<>(tried);
        readNext.add(d.keyText(w, b).as("tq_key"));
        String after = w.render(w.dsl().select(readNext)
                .from(b.table())
                .where(walkedNext)
                .and(DSL.row(tried).gt(DSL.row(last)))
                .orderBy(d.claimOrder(b))
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
            List<org.jooq.SelectField<?>> taken = new ArrayList<>(d.shape(b, shape, false));
            taken.add(heldKey);
            take = w.render(w.dsl().select(taken)
                    .from(b.table())
                    .join(DSL.table(DSL.name("tq_held"))).on(held)
                    .where(d.claimable(w, b)))
                    + " for update of " + w.render(DSL.name(b.table().getName()));
        } else {
            List<org.jooq.SelectField<?>> taken = new ArrayList<>(d.shape(b, shape, true));
            taken.add(heldKey);
            take = w.render(w.dsl().update(JooqPieces.table(b))
                    .set(Map.of(JooqPieces.typed(attempt.get()), d.attemptPlusOne(attempt.get())))
                    .from(DSL.table(DSL.name("tq_held")))
                    .where(held)
                    .and(d.claimable(w, b))
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
        return d.claimable(w, b).and(DSL.not(d.idIs(w, b)))
                .and(DSL.condition("{0} <> all(cast({1} as text[]))", d.keyText(w, b),
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
     * {@link #settleAndUnlock}), the walk's CTEs passing over the settled row, tq_state AS (the walk's
     * state and the release's result) SELECT the row taken, or NULLs, with the state}. The outcome's key is
     * handed to the transaction as {@link #settleAndUnlock} hands it, so it comes free when the
     * outcome commits. The walk reads the table as the statement began, where the settled row is still
     * unsettled: it passes over that row by its id. Where the walk's next row shares the settled row's key,
     * the session's own hold lets it lock the key again, and the key stays held for that row.
     */
    Optional<Statement> settleAndWalk(RoleBinding<?> b, Statement outcome, ClaimShape shape) {
        d.requireForm(b);
        if (!walks(b)) {
            return Optional.empty();
        }
        StatementWriter w = d.writer();
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
    Statement settleAndUnlock(Statement outcome) {
        List<Param> params = new ArrayList<>(outcome.params());
        params.add(Param.of(Param.Kind.KEY));
        return new Statement(outcome.purpose() + " and unlock", "with \"tq_settled\" as ("
                + outcome.sql() + " returning 1) select pg_advisory_unlock(\"tq_kept\".\"tq_k\") from (select"
                + " \"tq_k\", pg_try_advisory_xact_lock(\"tq_k\") as \"tq_x\" from (select hashtextextended(?, 0)"
                + " as \"tq_k\" from (select count(*) from \"tq_settled\") as \"tq_written\") as \"tq_key\") as"
                + " \"tq_kept\"", params);
    }

    /** {@code function(hashtextextended(?key, 0))}. */
    private static Field<Boolean> keyCall(StatementWriter w, String function) {
        return DSL.field(function + "(hashtextextended({0}, 0))", SQLDataType.BOOLEAN,
                w.text(Param.of(Param.Kind.KEY)));
    }
}
