package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.ClockSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.StatementWriter;
import dev.tablequeue.transport.LeadingInsert;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.SelectField;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The statements every built-in dialect shares beyond its claims ({@link JooqClaimsDialect}): the settlements,
 * the inserts, the times, built with jOOQ and rendered for {@link #sqlDialect()}. A dialect overrides the
 * statements whose shape differs on its server (locks, returning rows).
 */
abstract class JooqQueueDialect extends JooqClaimsDialect {

    JooqQueueDialect(SQLDialect sqlDialect) {
        super(sqlDialect);
    }

    // ---- settlements ----

    /**
     * How this dialect's statements over many rows read their rows, bound as data; null where it writes rows
     * one execution each.
     */
    RowsTable rowsTable() {
        return null;
    }

    /** The writer of a settlement of one row, or of many where {@code many}. */
    private StatementWriter settlementWriter(boolean many) {
        StatementWriter one = writer();
        return many ? StatementWriter.ofRows(one.dsl(), rowsTable()::column) : one;
    }

    /** The settlement {@code build} writes over many rows, where this dialect binds rows as data. */
    private Optional<Statement> many(java.util.function.Function<Boolean, Optional<Statement>> build) {
        return rowsTable() == null ? Optional.empty() : build.apply(true);
    }

    /**
     * The UPDATE (or, with no {@code set}, the DELETE) of a settlement: of the row {@code where} names, or of
     * every row of the rows bound as data that {@code where} joins.
     */
    private Statement settlement(StatementWriter w, RoleBinding<?> b, String purpose, Map<Field<?>, Field<?>> set,
            Condition where) {
        if (!w.ofRows()) {
            return w.statement(purpose, set == null
                    ? w.dsl().deleteFrom(table(b)).where(where)
                    : w.dsl().update(table(b)).set(set).where(where));
        }
        return set == null ? rowsTable().delete(w, b, purpose, where) : rowsTable().update(w, b, purpose, set, where);
    }

    @Override
    public QueueSettlements settlements(RoleBinding<?> b, boolean toGroup, Table<?> toTable) {
        Map<QueueSettlements.Kind, List<Statement>> single = new java.util.EnumMap<>(QueueSettlements.Kind.class);
        Map<QueueSettlements.Kind, String> refused = new java.util.EnumMap<>(QueueSettlements.Kind.class);
        Map<Statement, Statement> many = new java.util.IdentityHashMap<>();
        java.util.function.BiConsumer<Statement, Optional<Statement>> pair = (one, m) -> m.ifPresent(x -> many.put(one, x));
        Statement ack = ack(b);
        single.put(QueueSettlements.Kind.ACK, List.of(ack));
        pair.accept(ack, ackMany(b));
        Statement drop = drop(b);
        single.put(QueueSettlements.Kind.DROP, List.of(drop));
        pair.accept(drop, dropMany(b));
        Optional<Statement> retry = retry(b);
        single.put(QueueSettlements.Kind.RETRY, retry.map(List::of).orElse(List.of()));
        retry.ifPresent(r -> pair.accept(r, retryMany(b)));
        if (b.has(Role.RETRY_AFTER)) {
            Statement later = retryAfter(b);
            single.put(QueueSettlements.Kind.RETRY_AFTER, List.of(later));
            pair.accept(later, retryAfterMany(b));
        } else {
            refused.put(QueueSettlements.Kind.RETRY_AFTER, "a delayed retry needs a retryAfter column");
        }
        if (toGroup) {
            Statement dead = deadLetterToGroup(b);
            single.put(QueueSettlements.Kind.DEAD_LETTER_TO_GROUP, List.of(dead));
            pair.accept(dead, deadLetterToGroupMany(b));
        }
        if (toTable != null) {
            single.put(QueueSettlements.Kind.DEAD_LETTER_TO_TABLE, deadLetterToTable(b, toTable));
        }
        return new StatementSettlements(this, b.tableName(), single, refused, many);
    }

    Statement ack(RoleBinding<?> b) {
        return finish(b, "ack", false, false);
    }

    Optional<Statement> ackMany(RoleBinding<?> b) {
        return many(m -> Optional.of(finish(b, "ack", false, m)));
    }

    Statement drop(RoleBinding<?> b) {
        return finish(b, "drop", true, false);
    }

    Optional<Statement> dropMany(RoleBinding<?> b) {
        return many(m -> Optional.of(finish(b, "drop", true, m)));
    }

    /**
     * Marks processed_at (and, for a drop, the last error), or deletes the row, while (lease form) the row
     * holds the token.
     */
    Statement finish(RoleBinding<?> b, String purpose, boolean failure, boolean many) {
        StatementWriter w = settlementWriter(many);
        Optional<Field<?>> processed = b.column(Role.PROCESSED_AT);
        if (processed.isPresent()) {
            Field<Object> p = typed(processed.get());
            Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
            set.put(p, now(w, b, p));
            if (failure) {
                writeLastError(w, b, set);
            }
            return settlement(w, b, purpose, set, idIs(w, b).and(holdsLease(w, b)));
        }
        return settlement(w, b, purpose, null, idIs(w, b).and(holdsLease(w, b)));
    }

    /**
     * Row lock: counts the attempt (the rollback of a claim would not); lease: clears the lease; advisory:
     * nothing (the take counted the attempt, and the release returns the row). Each writes the last error
     * where the binding keeps one.
     */
    Optional<Statement> retry(RoleBinding<?> b) {
        return retry(b, false);
    }

    Optional<Statement> retryMany(RoleBinding<?> b) {
        return many(m -> retry(b, m));
    }

    private Optional<Statement> retry(RoleBinding<?> b, boolean many) {
        StatementWriter w = settlementWriter(many);
        Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
        switch (b.form()) {
            case ROW_LOCK -> b.column(Role.ATTEMPT).ifPresent(a -> set.put(typed(a), attemptPlusOne(a)));
            case LEASE -> {
                Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
                set.put(lease, DSL.inline(null, lease));
            }
            case ADVISORY -> { }
        }
        writeLastError(w, b, set);
        if (set.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(settlement(w, b, "retry", set, idIs(w, b).and(holdsLease(w, b))));
    }

    Statement retryAfter(RoleBinding<?> b) {
        return retryAfter(b, false);
    }

    Optional<Statement> retryAfterMany(RoleBinding<?> b) {
        return many(m -> Optional.of(retryAfter(b, m)));
    }

    private Statement retryAfter(RoleBinding<?> b, boolean many) {
        Field<?> column = b.column(Role.RETRY_AFTER).orElseThrow(() -> new DialectException(name(), b.tableName(),
                "a delayed retry needs a retryAfter column"));
        StatementWriter w = settlementWriter(many);
        Field<Object> retryAfter = typed(column);
        Field<Object> at = b.clock() == ClockSource.DATABASE
                ? asObject(databaseNowPlus(w))
                : w.bind(Param.of(Param.Kind.RETRY_AT, retryAfter), retryAfter);
        Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
        set.put(retryAfter, at);
        if (b.form() == Form.ROW_LOCK) {
            b.column(Role.ATTEMPT).ifPresent(a -> set.put(typed(a), attemptPlusOne(a)));
        } else if (b.form() == Form.LEASE) {
            Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
            set.put(lease, DSL.inline(null, lease));
        }
        writeLastError(w, b, set);
        return settlement(w, b, "retry after", set, idIs(w, b).and(holdsLease(w, b)));
    }

    /** The database's clock plus a {@link Param.Kind#DELAY} param. */
    abstract Field<?> databaseNowPlus(StatementWriter w);

    Statement deadLetterToGroup(RoleBinding<?> b) {
        return deadLetterToGroup(b, false);
    }

    Optional<Statement> deadLetterToGroupMany(RoleBinding<?> b) {
        return many(m -> Optional.of(deadLetterToGroup(b, m)));
    }

    private Statement deadLetterToGroup(RoleBinding<?> b, boolean many) {
        Field<?> column = b.column(Role.GROUP).orElseThrow(() -> new DialectException(name(), b.tableName(),
                "a dead letter into a group needs a group column; name a dead-letter table instead"));
        StatementWriter w = settlementWriter(many);
        Field<Object> group = typed(column);
        Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
        set.put(group, w.bind(Param.of(Param.Kind.DESTINATION), group));
        if (b.form() == Form.LEASE) {
            Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
            set.put(lease, DSL.inline(null, lease));
        }
        writeLastError(w, b, set);
        return settlement(w, b, "dead letter", set, idIs(w, b).and(holdsLease(w, b)));
    }

    @SuppressWarnings("unchecked")
    List<Statement> deadLetterToTable(RoleBinding<?> b, Table<?> target) {
        List<Field<?>> columns = b.rowColumns();
        List<Field<?>> into = new ArrayList<>(columns.size());
        List<SelectField<?>> from = new ArrayList<>(columns.size());
        StatementWriter copy = writer();
        String lastError = b.column(Role.LAST_ERROR).map(Field::getName).orElse(null);
        for (Field<?> c : columns) {
            into.add(unqualified(c));
            // the copy carries the failure's text in place of the row's last error
            from.add(c.getName().equals(lastError) ? lastError(copy, c) : unqualified(c));
        }
        Statement insert = copy.statement("dead letter copy", copy.dsl().insertInto((Table<Record>) target)
                .columns(into)
                .select(copy.dsl().select(from).from(b.table()).where(idIs(copy, b)).and(holdsLease(copy, b))));
        StatementWriter remove = writer();
        Statement delete = remove.statement("dead letter delete", remove.dsl().deleteFrom(table(b))
                .where(idIs(remove, b))
                .and(holdsLease(remove, b)));
        return List.of(insert, delete);
    }

    // ---- inserts ----

    @Override
    public QueueInserts inserts(RoleBinding<?> b) {
        UniqueInsert unique = null;
        if (b.has(Role.UNIQUE_KEY)) {
            unique = uniqueInsert(b);
            if (unique == null) {
                throw new DialectException(name(), b.tableName(), "the table declares a unique key, and this"
                        + " dialect has no unique publish");
            }
        }
        return new StatementInserts(this, b, insert(b), insertReturningId(b), unique, l -> insertWith(b, l));
    }

    /** The publish of a row with a unique key into {@code b}'s table, which has one; null where there is none. */
    UniqueInsert uniqueInsert(RoleBinding<?> b) {
        return null;
    }

    /**
     * The insert with a leading row of {@code b}'s table ({@link QueueInserts#leading}): its statement returns the
     * leading row's id as its first column and, where it can, the message row's id as its second. Its
     * {@link Param.Kind#VALUE}s are the binding's insert values, then the leading row's. Null, the default, where
     * the database cannot write two tables in one statement or the binding keeps no such header.
     */
    Statement insertWith(RoleBinding<?> b, LeadingInsert leading) {
        return null;
    }

    /** The insert a publish runs: {@code b}'s insert columns, bound as {@link Param.Kind#VALUE}s. */
    public Statement insert(RoleBinding<?> b) {
        StatementWriter w = writer();
        return w.statement("insert", insertValues(w, b));
    }

    /**
     * The insert returning the row's id as its one column ({@code RETURNING}), run once per row, where the driver
     * reports no generated keys for a batch; null, the default, where the batch's generated keys are read.
     */
    Statement insertReturningId(RoleBinding<?> b) {
        return null;
    }

    /** The insert of {@code b}'s insert columns, each bound as a {@link Param.Kind#VALUE}. */
    org.jooq.InsertValuesStepN<Record> insertValues(StatementWriter w, RoleBinding<?> b) {
        List<Field<?>> columns = b.insertColumns();
        List<Field<?>> into = new ArrayList<>(columns.size());
        List<Field<?>> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            Field<?> c = columns.get(i);
            into.add(unqualified(c));
            values.add(w.bind(Param.at(Param.Kind.VALUE, c, i), typed(c)));
        }
        return w.dsl().insertInto(table(b)).columns(into).values(values);
    }

    // ---- values ----

    /**
     * A time in the JDBC type of its column: {@code OffsetDateTime} for time-zone-aware columns, a UTC
     * {@code LocalDateTime} for the others. SQLite overrides this: it keeps times as text.
     */
    @Override
    public Object timeValue(Field<?> column, Instant instant) {
        Class<?> type = column == null ? OffsetDateTime.class : column.getType();
        if (type == LocalDateTime.class) {
            return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        }
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    @Override
    public boolean claimsInParallel() {
        return true;
    }
}
