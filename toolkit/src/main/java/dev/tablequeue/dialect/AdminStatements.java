package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.ClockSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.StatementWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectField;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The statements of the queue admin ({@code QueueAdmin}) over one binding, built with jOOQ from the binding's
 * columns for a built-in dialect (or one built on {@link JooqQueueDialect}). They read a row's state by the
 * same conditions the queue's claims use, so a row the stats count as pending is one a claim would take.
 *
 * <p>The admin runs rarely, so these are built on each call, not once. Their params: {@link Param.Kind#GROUP}
 * is the group read, {@link Param.Kind#DESTINATION} the group written, {@link Param.Kind#NOW} the host's
 * "now" (where the binding reads the host's clock), {@link Param.Kind#RETRY_AT} a cutoff time in its column's
 * type, {@link Param.Kind#ID} the ids of a list and {@link Param.Kind#LIMIT} a batch's size.
 */
public final class AdminStatements {
    private final JooqQueueDialect dialect;
    private final RoleBinding<?> b;

    private AdminStatements(JooqQueueDialect dialect, RoleBinding<?> binding) {
        this.dialect = dialect;
        this.b = binding;
    }

    /**
     * The admin statements of {@code binding} on {@code dialect}.
     *
     * @throws DialectException where the dialect is not built on {@link JooqQueueDialect}
     */
    public static AdminStatements of(QueueDialect dialect, RoleBinding<?> binding) {
        if (!(dialect instanceof JooqQueueDialect jooq)) {
            throw new DialectException(dialect.name(), binding.tableName(), "the queue admin builds its statements"
                    + " with a dialect built on JooqQueueDialect, and " + dialect.getClass().getName() + " is not");
        }
        return new AdminStatements(jooq, binding);
    }

    /**
     * One row of a queue's counts: pending (claimable now), scheduled (due later), leased (held by a lease, in
     * the lease form; 0 in the others), processed (acknowledged and kept), the due time of the oldest pending
     * row (NULL where the table has no retryAfter column, or nothing is pending) and the database's "now"
     * (NULL where the binding reads the host's clock).
     */
    public Statement stats() {
        StatementWriter w = dialect.writer();
        Condition pending = dialect.claimable(w, b);
        Field<?> zero = DSL.inline(0);
        Field<?> scheduled = b.column(Role.RETRY_AFTER)
                .<Field<?>>map(r -> DSL.count().filterWhere(unfinished().and(unheld(w))
                        .and(JooqQueueDialect.typed(r).gt(dialect.now(w, b, JooqQueueDialect.typed(r))))))
                .orElse(zero);
        Field<?> leased = b.form() == Form.LEASE
                ? DSL.count().filterWhere(unfinished().and(lease().gt(dialect.now(w, b, lease()))))
                : zero;
        Field<?> processed = b.column(Role.PROCESSED_AT)
                .<Field<?>>map(p -> DSL.count().filterWhere(JooqQueueDialect.unqualified(p).isNotNull()))
                .orElse(zero);
        Field<?> oldest = b.column(Role.RETRY_AFTER)
                .<Field<?>>map(r -> DSL.min(JooqQueueDialect.typed(r)).filterWhere(pending))
                .orElse(DSL.inline((Object) null));
        Field<?> now = b.clock() == ClockSource.DATABASE ? dialect.databaseNow() : DSL.inline((Object) null);
        return w.statement("admin stats", w.dsl()
                .select(DSL.count().filterWhere(pending), scheduled, leased, processed, oldest, now)
                .from(b.table())
                .where(inGroup(w)));
    }

    /** The unfinished rows of the queue by their attempt column's value: rows of (attempt, count), by attempt. */
    public Statement attempts() {
        Field<Object> attempt = JooqQueueDialect.typed(b.column(Role.ATTEMPT).orElseThrow(() -> refused(
                "the attempts of a queue are read from its attempt column, which the binding does not name")));
        StatementWriter w = dialect.writer();
        return w.statement("admin attempts", w.dsl()
                .select(attempt, DSL.count())
                .from(b.table())
                .where(inGroup(w))
                .and(unfinished())
                .groupBy(attempt)
                .orderBy(attempt));
    }

    /** The groups the table's rows are in, in order: one row each. */
    public Statement groups() {
        Field<Object> group = JooqQueueDialect.typed(groupColumn());
        StatementWriter w = dialect.writer();
        return w.statement("admin groups", w.dsl().selectDistinct(group).from(b.table())
                .where(group.isNotNull())
                .orderBy(group));
    }

    /** The unfinished rows of the dead-letter group (the group param): one row, one count. */
    public Statement deadInGroup() {
        groupColumn();
        StatementWriter w = dialect.writer();
        return w.statement("admin dead letters", w.dsl().selectCount().from(b.table())
                .where(inGroup(w))
                .and(unfinished()));
    }

    /** The unfinished rows of the queue's group in the dead-letter table {@code dead}: one row, one count. */
    public Statement deadInTable(Table<?> dead) {
        StatementWriter w = dialect.writer();
        return w.statement("admin dead letters", w.dsl().selectCount().from(dead)
                .where(inGroup(w))
                .and(unfinished()));
    }

    /**
     * Moves the dead letters of a group (the group param) back into the queue's group (the destination
     * param): unfinished rows that no lease holds, with {@code ids} ids (all where 0), due before the cutoff
     * where {@code byAge}. Their attempt starts again at 1 and their lease is cleared.
     */
    public Statement redriveGroup(int ids, boolean byAge) {
        Field<Object> group = JooqQueueDialect.typed(groupColumn());
        StatementWriter w = dialect.writer();
        Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
        set.put(group, w.bind(Param.of(Param.Kind.DESTINATION), group));
        b.column(Role.ATTEMPT).ifPresent(a -> set.put(JooqQueueDialect.typed(a), DSL.inline(1)));
        if (b.form() == Form.LEASE) {
            set.put(lease(), DSL.inline(null, lease()));
        }
        return w.statement("admin redrive", w.dsl().update(JooqQueueDialect.table(b))
                .set(set)
                .where(inGroup(w))
                .and(unfinished())
                .and(unheld(w))
                .and(dueBefore(w, byAge))
                .and(idIn(w, ids)));
    }

    /**
     * Selects and locks, until the transaction ends, up to a batch of ids (the limit param) of the queue's
     * unfinished rows in the dead-letter table {@code dead}, in id order: with {@code ids} ids (all where 0),
     * due before the cutoff where {@code byAge}.
     */
    public Statement deadIds(Table<?> dead, int ids, boolean byAge) {
        StatementWriter w = dialect.writer();
        Field<Object> id = JooqQueueDialect.typed(b.id());
        return w.statement("admin dead letter ids", dialect.lockingRead(w.dsl().select(id).from(dead)
                .where(inGroup(w))
                .and(unfinished())
                .and(dueBefore(w, byAge))
                .and(idIn(w, ids))
                .orderBy(id)
                .limit(w.integer(Param.of(Param.Kind.LIMIT)))));
    }

    /**
     * Copies {@code ids} rows of the dead-letter table {@code dead} back into the queue table, every column as
     * it is but the attempt, which starts again at 1, and the lease, which is cleared.
     */
    @SuppressWarnings("unchecked")
    public Statement copyBack(Table<?> dead, int ids) {
        StatementWriter w = dialect.writer();
        List<Field<?>> into = new ArrayList<>();
        List<SelectField<?>> from = new ArrayList<>();
        Optional<String> attempt = b.column(Role.ATTEMPT).map(Field::getName);
        Optional<String> lease = b.column(Role.LEASE).map(Field::getName);
        for (Field<?> c : b.rowColumns()) {
            Field<?> column = JooqQueueDialect.unqualified(c);
            into.add(column);
            if (attempt.isPresent() && attempt.get().equals(c.getName())) {
                from.add(DSL.inline(1).as(c.getName()));
            } else if (lease.isPresent() && lease.get().equals(c.getName())) {
                from.add(DSL.inline(null, c.getDataType()).as(c.getName()));
            } else {
                from.add(column);
            }
        }
        return w.statement("admin redrive copy", w.dsl().insertInto((Table<Record>) b.table())
                .columns(into)
                .select(w.dsl().select(from).from(dead).where(idIn(w, ids))));
    }

    /** Deletes {@code ids} rows of the dead-letter table {@code dead}. */
    public Statement deleteDead(Table<?> dead, int ids) {
        StatementWriter w = dialect.writer();
        @SuppressWarnings("unchecked")
        Table<Record> table = (Table<Record>) dead;
        return w.statement("admin redrive delete", w.dsl().deleteFrom(table).where(idIn(w, ids)));
    }

    /**
     * The unfinished rows of a group (the group param) of {@code from} (the queue's table, or a dead-letter
     * table of its shape) that failed at least once, by their attempt above 1 or their last error, in due order
     * then id order, at most the limit param: rows of (id, attempt or NULL, last error or NULL, retryAfter or
     * NULL). With {@code all}, every unfinished row of the group, failed or not (a dead-letter group's rows).
     *
     * @throws DialectException where the table has neither an attempt nor a lastError column, and not {@code all}
     */
    public Statement rows(Table<?> from, boolean all) {
        StatementWriter w = dialect.writer();
        Optional<Field<Object>> attempt = b.column(Role.ATTEMPT).map(JooqQueueDialect::typed);
        Optional<Field<Object>> lastError = b.column(Role.LAST_ERROR).map(JooqQueueDialect::typed);
        Optional<Field<Object>> retryAfter = b.column(Role.RETRY_AFTER).map(JooqQueueDialect::typed);
        Condition failed = DSL.noCondition();
        if (!all) {
            if (attempt.isEmpty() && lastError.isEmpty()) {
                throw refused("the failing rows of a queue are read from its attempt or lastError column, and the"
                        + " binding names neither");
            }
            failed = DSL.or(attempt.map(a -> a.gt(DSL.inline(1))).orElse(DSL.falseCondition()),
                    lastError.map(Field::isNotNull).orElse(DSL.falseCondition()));
        }
        Field<Object> id = JooqQueueDialect.typed(b.id());
        Field<?> none = DSL.inline((Object) null);
        List<org.jooq.OrderField<?>> order = new ArrayList<>();
        retryAfter.ifPresent(order::add);
        order.add(id);
        return w.statement("admin rows", w.dsl()
                .select(id, attempt.<Field<?>>map(x -> x).orElse(none), lastError.<Field<?>>map(x -> x).orElse(none),
                        retryAfter.<Field<?>>map(x -> x).orElse(none))
                .from(from)
                .where(inGroup(w))
                .and(unfinished())
                .and(failed)
                .orderBy(order)
                .limit(w.integer(Param.of(Param.Kind.LIMIT))));
    }

    /**
     * Makes one unfinished row of a group (the group param) due now, by id (the id param): its retryAfter set
     * to now and, in the lease form, its lease cleared, unless a lease holds it.
     *
     * @throws DialectException where the table has no retryAfter column
     */
    public Statement retryNow() {
        Field<Object> retryAfter = JooqQueueDialect.typed(b.column(Role.RETRY_AFTER).orElseThrow(() -> refused(
                "a row is made due now through its retryAfter column, which the binding does not name (its rows"
                        + " are always due)")));
        StatementWriter w = dialect.writer();
        Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
        set.put(retryAfter, dialect.now(w, b, retryAfter));
        if (b.form() == Form.LEASE) {
            set.put(lease(), DSL.inline(null, lease()));
        }
        return w.statement("admin retry now", w.dsl().update(JooqQueueDialect.table(b))
                .set(set)
                .where(JooqQueueDialect.typed(b.id()).eq(w.bind(Param.of(Param.Kind.ID, b.id()), JooqQueueDialect.typed(b.id()))))
                .and(inGroup(w))
                .and(unfinished())
                .and(unheld(w)));
    }

    /** Deletes one unfinished row of a group (the group param) of {@code from}, by id (the id param). */
    public Statement deleteRow(Table<?> from) {
        StatementWriter w = dialect.writer();
        @SuppressWarnings("unchecked")
        Table<Record> table = (Table<Record>) from;
        Field<Object> id = JooqQueueDialect.typed(b.id());
        return w.statement("admin delete", w.dsl().deleteFrom(table)
                .where(id.eq(w.bind(Param.of(Param.Kind.ID, b.id()), id)))
                .and(inGroup(w))
                .and(unfinished()));
    }

    /**
     * The acknowledged rows of the queue (the group param) per period: one row of {@code periods} counts, the
     * i-th of the rows processed from the i-th bound up to the next. The {@code periods + 1} bounds are value
     * params 0 to {@code periods}, oldest first, each already in the processedAt column's type.
     *
     * @throws DialectException where the table has no processedAt column
     */
    public Statement processedPerPeriod(int periods) {
        Field<Object> processed = JooqQueueDialect.typed(b.column(Role.PROCESSED_AT).orElseThrow(() -> refused(
                "the rows a queue processed are counted by its processedAt column, which the binding does not name"
                        + " (an acknowledgement deletes the row)")));
        StatementWriter w = dialect.writer();
        List<Field<?>> bounds = new ArrayList<>();
        for (int i = 0; i <= periods; i++) {
            bounds.add(w.bind(Param.at(Param.Kind.VALUE, processed, i), processed));
        }
        List<SelectField<?>> counts = new ArrayList<>();
        for (int i = 0; i < periods; i++) {
            @SuppressWarnings("unchecked")
            Field<Object> from = (Field<Object>) bounds.get(i);
            @SuppressWarnings("unchecked")
            Field<Object> to = (Field<Object>) bounds.get(i + 1);
            counts.add(DSL.count().filterWhere(processed.ge(from).and(processed.lt(to))));
        }
        @SuppressWarnings("unchecked")
        Field<Object> first = (Field<Object>) bounds.get(0);
        return w.statement("admin processed per period", w.dsl().select(counts).from(b.table())
                .where(inGroup(w))
                .and(processed.ge(first)));
    }

    /**
     * Up to the limit of ids of the queue's rows acknowledged before the cutoff, in id order, past the id param
     * (the last id of the batch before) where {@code after}: a purge deletes them a batch at a time.
     */
    public Statement purgeIds(boolean after) {
        StatementWriter w = dialect.writer();
        Field<Object> id = JooqQueueDialect.typed(b.id());
        return w.statement("admin purge ids", w.dsl().select(id).from(b.table())
                .where(inGroup(w))
                .and(acknowledgedBefore(w))
                .and(after ? id.gt(w.bind(Param.of(Param.Kind.ID, b.id()), id)) : DSL.noCondition())
                .orderBy(id)
                .limit(w.integer(Param.of(Param.Kind.LIMIT))));
    }

    /** Deletes {@code ids} rows of the queue that are still acknowledged before the cutoff. */
    public Statement purge(int ids) {
        StatementWriter w = dialect.writer();
        return dialect.deleteByIds(w, "admin purge", b.table(), idIn(w, ids).and(inGroup(w)).and(acknowledgedBefore(w)));
    }

    private Condition acknowledgedBefore(StatementWriter w) {
        Field<Object> processed = JooqQueueDialect.typed(b.column(Role.PROCESSED_AT).orElseThrow(() -> refused(
                "a purge deletes acknowledged rows by their processedAt column, which the binding does not name"
                        + " (an acknowledgement deletes the row itself)")));
        return processed.isNotNull().and(processed.lt(w.bind(Param.of(Param.Kind.RETRY_AT, processed), processed)));
    }

    // ---- pieces ----

    /** {@code group = ?}, where the table has a group column. */
    private Condition inGroup(StatementWriter w) {
        return b.column(Role.GROUP)
                .map(g -> JooqQueueDialect.typed(g).eq(w.bind(Param.of(Param.Kind.GROUP), JooqQueueDialect.typed(g))))
                .orElse(DSL.noCondition());
    }

    private Condition unfinished() {
        return b.column(Role.PROCESSED_AT).map(p -> JooqQueueDialect.unqualified(p).isNull())
                .orElse(DSL.noCondition());
    }

    /** In the lease form, no lease holds the row: it is empty or has passed. */
    private Condition unheld(StatementWriter w) {
        return b.form() == Form.LEASE ? lease().isNull().or(lease().le(dialect.now(w, b, lease()))) : DSL.noCondition();
    }

    /** Where {@code byAge}, the row came due before the cutoff. */
    private Condition dueBefore(StatementWriter w, boolean byAge) {
        if (!byAge) {
            return DSL.noCondition();
        }
        Field<Object> retryAfter = JooqQueueDialect.typed(b.column(Role.RETRY_AFTER).orElseThrow(() -> refused(
                "the age of a dead letter is read from its retryAfter column, which the binding does not name")));
        return retryAfter.le(w.bind(Param.of(Param.Kind.RETRY_AT, retryAfter), retryAfter));
    }

    private Condition idIn(StatementWriter w, int ids) {
        return ids == 0 ? DSL.noCondition() : JooqQueueDialect.typed(b.id()).in(dialect.ids(w, b, ids));
    }

    private Field<?> groupColumn() {
        return b.column(Role.GROUP).orElseThrow(() -> refused(
                "the table has no group column, so it holds one queue and no dead-letter group"));
    }

    private Field<Object> lease() {
        return JooqQueueDialect.typed(b.column(Role.LEASE).orElseThrow());
    }

    private DialectException refused(String why) {
        return new DialectException(dialect.name(), b.tableName(), why);
    }
}
