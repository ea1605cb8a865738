package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.StatementWriter;
import java.util.List;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The statements of retention over one binding: a batch of ids of finished rows past their age, then the delete
 * of those ids, which checks each row's state again (a row redriven or settled since the read stays). Each
 * batch is read with a plain read and deleted by primary key, so the delete locks only the rows it removes; on
 * MySQL and MariaDB it names the primary key, whose planner would otherwise scan a small table and lock every
 * row it reads.
 *
 * <p>A pass reads its batches in id order, each after the last id of the one before ({@code after}), so no
 * batch reads again over the rows the pass has deleted (on PostgreSQL their dead tuples stay in the heap until a
 * vacuum), and a pass reads each row of the table once at most.
 *
 * <p>Params: {@link Param.Kind#RETRY_AT} is the cutoff, in the aged column's type; {@link Param.Kind#NOW} the
 * host's "now" (the lease form reads it, to leave a row a lease holds); {@link Param.Kind#GROUP} the dead-letter
 * group; {@link Param.Kind#LIMIT} a batch's size; {@link Param.Kind#ID} the ids of a delete, or the last id of
 * the batch before, which a read with {@code after} reads past.
 */
public final class RetentionStatements {
    private static final String ROW = "tq_row";
    private static final String NEWER = "tq_newer";
    private static final String LATER = "tq_later";

    private final JooqQueueDialect dialect;
    private final RoleBinding<?> b;
    /** The schedules that publish into the table, whose newest rows stay (none: an empty list). */
    private final List<String> schedules;

    private RetentionStatements(JooqQueueDialect dialect, RoleBinding<?> binding, List<String> schedules) {
        this.dialect = dialect;
        this.b = binding;
        this.schedules = List.copyOf(schedules);
    }

    /**
     * The retention statements of {@code binding} on {@code dialect}.
     *
     * @throws DialectException where the dialect is not built on {@link JooqQueueDialect}
     */
    public static RetentionStatements of(QueueDialect dialect, RoleBinding<?> binding) {
        return of(dialect, binding, List.of());
    }

    /**
     * The retention statements of {@code binding} on {@code dialect}, leaving each of {@code schedules}' newest
     * row in the table: the row whose unique key is the greatest of those starting with the schedule's name and
     * {@code @} (a recurring job finds its last instant there, and would publish it again without it).
     *
     * @throws DialectException where the dialect is not built on {@link JooqQueueDialect}, or schedules are
     *     given and the binding names no unique key
     */
    public static RetentionStatements of(QueueDialect dialect, RoleBinding<?> binding, List<String> schedules) {
        if (!(dialect instanceof JooqQueueDialect jooq)) {
            throw new DialectException(dialect.name(), binding.tableName(), "retention builds its statements with a"
                    + " dialect built on JooqQueueDialect, and " + dialect.getClass().getName() + " is not");
        }
        if (!schedules.isEmpty() && !binding.has(Role.UNIQUE_KEY)) {
            throw new DialectException(dialect.name(), binding.tableName(), "schedules " + schedules + " publish into"
                    + " the table, whose binding names no unique key to find their newest rows by");
        }
        return new RetentionStatements(jooq, binding, schedules);
    }

    /**
     * Up to the limit of ids of acknowledged rows processed before the cutoff, in id order, past the id param
     * where {@code after}; where {@code keepNewestPer} is given, leaving out each value's newest row (highest id)
     * of that column.
     */
    public Statement acknowledgedIds(Field<?> keepNewestPer, boolean after) {
        StatementWriter w = dialect.writer();
        Field<Object> processed = processed();
        Condition finished = at(ROW, processed).isNotNull().and(at(ROW, processed).lt(cutoff(w, processed)));
        return w.statement("retention acknowledged ids", w.dsl().select(at(ROW, b.id()))
                .from(b.table().as(ROW))
                .where(finished)
                .and(past(w, after))
                .and(notNewest(b.table(), keepNewestPer))
                .and(notNewestOfSchedules())
                .orderBy(at(ROW, b.id()))
                .limit(w.integer(Param.of(Param.Kind.LIMIT))));
    }

    /** Deletes {@code ids} rows that are still acknowledged before the cutoff. */
    public Statement deleteAcknowledged(int ids) {
        StatementWriter w = dialect.writer();
        Field<Object> processed = processed();
        Condition where = idIn(w, ids).and(processed.isNotNull()).and(processed.lt(cutoff(w, processed)));
        return dialect.deleteByIds(w, "retention acknowledged delete", b.table(), where);
    }

    /**
     * Up to the limit of ids of the dead-letter group's rows (the group param) whose {@code agedBy} is before the
     * cutoff, in the lease form those no lease holds, in id order, past the id param where {@code after}; leaving
     * out each value's newest row of {@code keepNewestPer} where given.
     */
    public Statement deadIdsInGroup(Field<?> agedBy, Field<?> keepNewestPer, boolean after) {
        StatementWriter w = dialect.writer();
        Field<Object> group = JooqQueueDialect.typed(b.column(Role.GROUP).orElseThrow(() -> refused(
                "a dead-letter group is a value of the group column, which the binding does not name")));
        Condition dead = at(ROW, group).eq(w.bind(Param.of(Param.Kind.GROUP), group))
                .and(aged(w, ROW, agedBy))
                .and(unheld(w, ROW));
        return w.statement("retention dead ids", w.dsl().select(at(ROW, b.id()))
                .from(b.table().as(ROW))
                .where(dead)
                .and(past(w, after))
                .and(notNewest(b.table(), keepNewestPer))
                .and(notNewestOfSchedules())
                .orderBy(at(ROW, b.id()))
                .limit(w.integer(Param.of(Param.Kind.LIMIT))));
    }

    /** Deletes {@code ids} rows still in the dead-letter group (the group param) and past their age. */
    public Statement deleteDeadInGroup(Field<?> agedBy, int ids) {
        StatementWriter w = dialect.writer();
        Field<Object> group = JooqQueueDialect.typed(b.column(Role.GROUP).orElseThrow());
        Condition where = idIn(w, ids).and(group.eq(w.bind(Param.of(Param.Kind.GROUP), group)))
                .and(aged(w, null, agedBy))
                .and(unheld(w, null));
        return dialect.deleteByIds(w, "retention dead delete", b.table(), where);
    }

    /**
     * Up to the limit of ids of rows of the dead-letter table {@code dead} whose {@code agedBy} is before the cutoff,
     * in id order, past the id param where {@code after}.
     */
    public Statement deadIdsInTable(Table<?> dead, Field<?> agedBy, boolean after) {
        StatementWriter w = dialect.writer();
        return w.statement("retention dead ids", w.dsl().select(at(ROW, b.id()))
                .from(dead.as(ROW))
                .where(aged(w, ROW, agedBy))
                .and(past(w, after))
                .orderBy(at(ROW, b.id()))
                .limit(w.integer(Param.of(Param.Kind.LIMIT))));
    }

    /** Deletes {@code ids} rows of the dead-letter table {@code dead} still past their age. */
    public Statement deleteDeadInTable(Table<?> dead, Field<?> agedBy, int ids) {
        StatementWriter w = dialect.writer();
        return dialect.deleteByIds(w, "retention dead delete", dead, idIn(w, ids).and(aged(w, null, agedBy)));
    }

    // ---- pieces ----

    /** Where {@code after}: the row's id is past the id param, the last id of the batch before. */
    private Condition past(StatementWriter w, boolean after) {
        if (!after) {
            return DSL.noCondition();
        }
        Field<Object> id = JooqQueueDialect.typed(b.id());
        return at(ROW, b.id()).gt(w.bind(Param.of(Param.Kind.ID, b.id()), id));
    }

    private Field<Object> processed() {
        return JooqQueueDialect.typed(b.column(Role.PROCESSED_AT).orElseThrow(() -> refused(
                "retention ages acknowledged rows by their processedAt column, which the binding does not name")));
    }

    private static Field<Object> cutoff(StatementWriter w, Field<Object> column) {
        return w.bind(Param.of(Param.Kind.RETRY_AT, column), column);
    }

    /** {@code agedBy} set and before the cutoff. */
    private static Condition aged(StatementWriter w, String alias, Field<?> agedBy) {
        Field<Object> column = alias == null ? JooqQueueDialect.typed(agedBy) : at(alias, agedBy);
        return column.isNotNull().and(column.lt(cutoff(w, JooqQueueDialect.typed(agedBy))));
    }

    /** In the lease form, no lease holds the row. */
    private Condition unheld(StatementWriter w, String alias) {
        if (b.form() != Form.LEASE) {
            return DSL.noCondition();
        }
        Field<?> column = b.column(Role.LEASE).orElseThrow();
        Field<Object> lease = alias == null ? JooqQueueDialect.typed(column) : at(alias, column);
        return lease.isNull().or(lease.le(dialect.now(w, b, JooqQueueDialect.typed(column))));
    }

    /**
     * Where {@code keep} is given: the row's value of it is null, or a row of {@code table} with the same value
     * and a higher id exists, so the newest row of each value stays.
     */
    private Condition notNewest(Table<?> table, Field<?> keep) {
        if (keep == null) {
            return DSL.noCondition();
        }
        return at(ROW, keep).isNull().or(DSL.exists(DSL.selectOne().from(table.as(NEWER))
                .where(at(NEWER, keep).eq(at(ROW, keep)))
                .and(at(NEWER, b.id()).gt(at(ROW, b.id())))));
    }

    /**
     * For each schedule: the row's key is not one of the schedule's ({@code name@...}), or a row with a greater
     * key of the same schedule exists, so the newest row of each schedule stays. A schedule's keys have one width,
     * so the greatest is the newest.
     */
    private Condition notNewestOfSchedules() {
        if (schedules.isEmpty()) {
            return DSL.noCondition();
        }
        Field<?> key = b.column(Role.UNIQUE_KEY).orElseThrow();
        Field<Object> row = at(ROW, key);
        Field<Object> later = at(LATER, key);
        Condition all = DSL.noCondition();
        for (String name : schedules) {
            String prefix = name + "@";
            all = all.and(row.isNull().or(row.notLike(DSL.inline(escaped(prefix) + "%"), '!'))
                    .or(DSL.exists(DSL.selectOne().from(b.table().as(LATER))
                            .where(later.like(DSL.inline(escaped(prefix) + "%"), '!'))
                            .and(later.gt(row)))));
        }
        return all;
    }

    /** {@code text} with LIKE's wildcards and the escape character escaped by {@code !}. */
    private static String escaped(String text) {
        return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }

    private Condition idIn(StatementWriter w, int ids) {
        return JooqQueueDialect.typed(b.id()).in(dialect.ids(w, b, ids));
    }

    @SuppressWarnings("unchecked")
    private static Field<Object> at(String alias, Field<?> column) {
        return (Field<Object>) DSL.field(DSL.name(alias, column.getName()), column.getDataType());
    }

    private DialectException refused(String why) {
        return new DialectException(dialect.name(), b.tableName(), why);
    }
}
