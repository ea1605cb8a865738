package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.ClockSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.KeyPart;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.ClaimOrder;
import dev.tablequeue.internal.StatementWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.SelectField;
import org.jooq.SelectForUpdateStep;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The pieces the statements of every built-in dialect are built from, with jOOQ: "now" by the binding's
 * clock, the claim's condition and order, the columns a claim reads in each shape, the lease token, the
 * last error, the advisory key. {@link JooqQueueDialect} builds the statements from them; a dialect
 * overrides a piece whose shape differs on its server.
 */
abstract class JooqPieces implements QueueDialect, Cloneable {

    /**
     * {@code NOT EXISTS (subquery)}, as a template: jOOQ 3.19's {@code DSL.notExists} takes a {@code Select} and
     * 3.21's a {@code TableLike}, so a jar compiled against one cannot call the other's, and the toolkit runs on
     * the jOOQ a service brings (Spring Boot 4.0 manages 3.19).
     */
    static Condition notExists(Select<?> subquery) {
        return DSL.condition("not exists ({0})", subquery);
    }
    private final SQLDialect sqlDialect;
    /** The service's settings names are rendered through ({@link #rendering}); null: jOOQ's defaults. */
    private Settings names;

    JooqPieces(SQLDialect sqlDialect) {
        this.sqlDialect = sqlDialect;
    }

    @Override
    public SQLDialect sqlDialect() {
        return sqlDialect;
    }

    /**
     * A copy of this dialect that renders names through {@code settings}' render mapping and schema setting.
     * A shallow copy: what a built-in dialect holds besides is fixed when it is made (the server it serves).
     */
    @Override
    public QueueDialect rendering(Settings settings) {
        try {
            JooqPieces copy = (JooqPieces) clone();
            copy.names = settings;
            return copy;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError("a dialect is Cloneable", e);
        }
    }

    /** A fresh writer for one statement. */
    StatementWriter writer() {
        return new StatementWriter(DSL.using(sqlDialect, renderSettings()));
    }

    /**
     * The settings statements render with: the dialect's own ({@link StatementWriter#settings()}), and from the
     * service's settings, where given, how names are mapped and whether schemas are rendered.
     */
    Settings renderSettings() {
        Settings settings = StatementWriter.settings();
        if (names != null) {
            settings.setRenderMapping(names.getRenderMapping());
            settings.setRenderSchema(names.isRenderSchema());
            settings.setRenderCatalog(names.isRenderCatalog());
        }
        return settings;
    }

    // ---- pieces ----

    /** "Now" for comparisons with {@code column}: the host's time as a param, or the database's clock. */
    @SuppressWarnings("unchecked")
    <T> Field<T> now(StatementWriter w, RoleBinding<?> b, Field<T> column) {
        if (b.clock() == ClockSource.DATABASE) {
            return (Field<T>) databaseNow();
        }
        return w.bind(Param.of(Param.Kind.NOW, column), column);
    }

    /** The conditions that make a row claimable: its group, due, unfinished, and (lease form) unleased. */
    Condition claimable(StatementWriter w, RoleBinding<?> b) {
        List<Condition> conditions = new ArrayList<>();
        b.column(Role.GROUP).ifPresent(g -> conditions.add(typed(g).eq(w.bind(Param.of(Param.Kind.GROUP), typed(g)))));
        b.column(Role.RETRY_AFTER).ifPresent(r -> conditions.add(typed(r).le(now(w, b, typed(r)))));
        b.column(Role.PROCESSED_AT).ifPresent(p -> conditions.add(unqualified(p).isNull()));
        if (b.form() == Form.LEASE) {
            Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
            conditions.add(lease.isNull().or(lease.le(now(w, b, lease))));
        }
        if (b.keysInOrder()) {
            conditions.add(notExists(earlierOfKey(w, b)));
        }
        return DSL.and(conditions);
    }

    /**
     * An unfinished row of the claimed row's group and partition key with a smaller id: while one exists the
     * row waits ({@link RoleBinding#inKeyOrder()}). It reads the rows as committed, without locking them: a
     * row in work is unfinished until its settlement commits, so the key's next row is not taken before.
     */
    org.jooq.Select<?> earlierOfKey(StatementWriter w, RoleBinding<?> b) {
        Field<?> key = b.column(Role.PARTITION_KEY).orElseThrow();
        List<Condition> conditions = new ArrayList<>();
        conditions.add(earlier(key).eq(outer(b, key)));
        conditions.add(earlier(b.id()).lt(outer(b, b.id())));
        b.column(Role.GROUP).ifPresent(g -> conditions.add(earlier(g).eq(w.bind(Param.of(Param.Kind.GROUP), typed(g)))));
        b.column(Role.PROCESSED_AT).ifPresent(p -> conditions.add(earlier(p).isNull()));
        return w.dsl().selectOne().from(b.table().as("tq_before")).where(DSL.and(conditions));
    }

    private static Field<Object> earlier(Field<?> column) {
        return DSL.field(DSL.name("tq_before", column.getName()));
    }

    /** {@code column} of the statement's own table, qualified by the table's name (for a correlated subquery). */
    static Field<Object> outer(RoleBinding<?> b, Field<?> column) {
        return DSL.field(DSL.name(b.table().getName(), column.getName()));
    }

    /** Claim order: priority, then retry_after, then id, each where the table has it. */
    List<SortField<?>> claimOrder(RoleBinding<?> b) {
        List<SortField<?>> order = new ArrayList<>();
        for (Field<?> column : claimOrderColumns(b)) {
            order.add(unqualified(column).asc());
        }
        return order;
    }

    /**
     * {@code returned}, then each row's claim order values, labelled {@code tq_order_0}, {@code tq_order_1}, ..
     * ({@link ClaimOrder#LABEL}): for a claim that returns its rows from an {@code UPDATE}, which orders them
     * in no way of its own. The claim does not write these columns, so they read as the claim ordered by them.
     */
    List<SelectField<?>> withClaimOrder(RoleBinding<?> b, List<SelectField<?>> returned) {
        List<SelectField<?>> fields = new ArrayList<>(returned);
        List<Field<?>> order = claimOrderColumns(b);
        for (int i = 0; i < order.size(); i++) {
            fields.add(unqualified(order.get(i)).as(ClaimOrder.LABEL + i));
        }
        return fields;
    }

    /** Claim order over the values {@link #withClaimOrder} labelled, read from {@code table}. */
    List<SortField<?>> byClaimOrderValues(RoleBinding<?> b, String table) {
        List<SortField<?>> order = new ArrayList<>();
        for (int i = 0; i < claimOrderColumns(b).size(); i++) {
            order.add(DSL.field(DSL.name(table, ClaimOrder.LABEL + i)).asc());
        }
        return order;
    }

    /** The columns of the claim order, each ascending: priority, retry_after and id, where the table has them. */
    List<Field<?>> claimOrderColumns(RoleBinding<?> b) {
        List<Field<?>> columns = new ArrayList<>();
        b.column(Role.PRIORITY).ifPresent(columns::add);
        b.column(Role.RETRY_AFTER).ifPresent(columns::add);
        columns.add(b.id());
        return columns;
    }

    /**
     * The columns a claim or fetch returns for {@code shape}. Where {@code stamped}, the attempt is read as
     * it was before the stamp counted it.
     */
    List<SelectField<?>> shape(RoleBinding<?> b, ClaimShape shape, boolean stamped) {
        List<Field<?>> columns = switch (shape) {
            case IDS -> List.of(b.id());
            case ROWS -> b.rowColumns();
            case ROLES -> {
                List<Field<?>> roles = new ArrayList<>();
                roles.add(b.id());
                for (Role role : new Role[] {Role.PARTITION_KEY, Role.ATTEMPT, Role.HEADERS, Role.PAYLOAD}) {
                    b.column(role).ifPresent(roles::add);
                }
                roles.addAll(b.headerFields());
                yield roles;
            }
        };
        Optional<Field<?>> attempt = b.column(Role.ATTEMPT);
        List<SelectField<?>> fields = new ArrayList<>(columns.size());
        for (Field<?> c : columns) {
            if (stamped && attempt.isPresent() && c.getName().equals(attempt.get().getName())) {
                fields.add(attemptBefore(attempt.get()));
            } else {
                fields.add(unqualified(c));
            }
        }
        return fields;
    }

    /** {@code attempt - 1 AS attempt}: the attempt as it stood before a stamp counted it. */
    Field<?> attemptBefore(Field<?> attempt) {
        Field<Object> a = typed(unqualified(attempt));
        return a.minus(DSL.inline(1)).as(attempt.getName());
    }

    /** {@code attempt + 1}, for the SET clause that counts a delivery. */
    Field<Object> attemptPlusOne(Field<?> attempt) {
        return typed(unqualified(attempt)).plus(DSL.inline(1));
    }

    /** The column by its name alone, so that statements read it in any FROM clause. */
    static <T> Field<T> unqualified(Field<T> column) {
        return DSL.field(DSL.name(column.getName()), column.getDataType());
    }

    /** A column seen as Field&lt;Object&gt;, for building statements over columns of any type. */
    @SuppressWarnings("unchecked")
    static Field<Object> typed(Field<?> column) {
        return (Field<Object>) unqualified(column);
    }

    /** An expression seen as Field&lt;Object&gt;, unchanged. */
    @SuppressWarnings("unchecked")
    static Field<Object> asObject(Field<?> expression) {
        return (Field<Object>) expression;
    }

    /** The id condition {@code id = ?}. */
    Condition idIs(StatementWriter w, RoleBinding<?> b) {
        Field<Object> id = typed(b.id());
        return id.eq(w.bind(Param.of(Param.Kind.ID, b.id()), id));
    }

    /** In the lease form, {@code locked_until = ?held}: the settlement takes effect only with the token. */
    Condition holdsLease(StatementWriter w, RoleBinding<?> b) {
        if (b.form() != Form.LEASE) {
            return DSL.noCondition();
        }
        Field<Object> lease = typed(b.column(Role.LEASE).orElseThrow());
        return lease.eq(w.bind(Param.of(Param.Kind.LEASE_HELD, lease), lease));
    }

    /**
     * Adds {@code last_error = coalesce(?, last_error)} to {@code set} where the binding keeps a last error:
     * an outcome a failure caused writes its text, any other binds null and keeps what the row held.
     */
    void writeLastError(StatementWriter w, RoleBinding<?> b, Map<Field<?>, Field<?>> set) {
        b.column(Role.LAST_ERROR).ifPresent(column -> set.put(typed(column), lastError(w, column)));
    }

    /** {@code coalesce(?, last_error)}: the failure's text, or the column's own where there is none. */
    Field<Object> lastError(StatementWriter w, Field<?> column) {
        Field<Object> e = typed(column);
        return DSL.coalesce(w.bind(Param.of(Param.Kind.LAST_ERROR, column), e), e);
    }

    /**
     * The text of a row's advisory key: literal parts as params, columns cast to text. A column that is NULL
     * reads as empty text: otherwise the whole key would be NULL, no lock could be taken on it and the row
     * would be passed over by every claim. Rows whose parts differ only by NULL and empty text share a key,
     * which runs them one at a time and never delivers one twice.
     */
    Field<String> keyText(StatementWriter w, RoleBinding<?> b) {
        List<Field<String>> parts = new ArrayList<>();
        for (KeyPart part : b.advisoryKey()) {
            if (part instanceof KeyPart.Literal l) {
                parts.add(w.text(Param.constant(l.text())));
            } else if (part instanceof KeyPart.Column c) {
                parts.add(DSL.coalesce(unqualified(c.field()).cast(SQLDataType.VARCHAR), DSL.inline("")));
            }
        }
        return parts.size() == 1 ? parts.get(0) : DSL.concat(parts.toArray(Field[]::new));
    }

    /**
     * {@code select}, locking the rows it reads until its transaction ends: {@code FOR UPDATE}. A database that
     * takes one writer at a time, whose transaction opening takes the write lock, overrides this.
     */
    Select<?> lockingRead(SelectForUpdateStep<?> select) {
        return select.forUpdate();
    }

    /**
     * {@code DELETE FROM table WHERE where}, for rows {@code where} names by their ids. MySQL and MariaDB override it
     * to read the table by its primary key.
     */
    @SuppressWarnings("unchecked")
    Statement deleteByIds(StatementWriter w, String purpose, Table<?> table, Condition where) {
        return w.statement(purpose, w.dsl().deleteFrom((Table<Record>) table).where(where));
    }

    /** The binding's table, typed for jOOQ's DSL. */
    @SuppressWarnings("unchecked")
    static Table<Record> table(RoleBinding<?> b) {
        return (Table<Record>) b.table();
    }

    /** Refuses identifiers of the binding longer than {@code limit} (bytes or characters, as the server counts). */
    void requireNameLength(RoleBinding<?> b, int limit, boolean bytes) {
        List<String> names = new ArrayList<>();
        names.add(b.table().getName());
        b.roles().values().forEach(f -> names.add(f.getName()));
        b.headerFields().forEach(f -> names.add(f.getName()));
        b.data().forEach(f -> names.add(f.getName()));
        for (String n : names) {
            int length = bytes ? n.getBytes(java.nio.charset.StandardCharsets.UTF_8).length : n.length();
            if (length > limit) {
                throw new DialectException(name(), b.tableName(), "the name \"" + n + "\" is " + length
                        + (bytes ? " bytes" : " characters") + ", over the server's limit of " + limit);
            }
        }
    }
}
