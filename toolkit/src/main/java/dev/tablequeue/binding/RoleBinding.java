package dev.tablequeue.binding;

import dev.tablequeue.BindingException;
import java.time.temporal.Temporal;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;

/**
 * Which role each column of a queue table plays: the description every statement of the queue is built
 * from. A binding is immutable; build it once, as a {@code static final} constant, so a binding that breaks
 * a rule fails at class initialisation.
 *
 * <pre>{@code
 * public static final RoleBinding<EmailJobsRecord> SEND_EMAIL =
 *     RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID)
 *         .group(EMAIL_JOBS.NAME)
 *         .retryAfter(EMAIL_JOBS.RETRY_AFTER)
 *         .attempt(EMAIL_JOBS.ATTEMPT)
 *         .processedAt(EMAIL_JOBS.PROCESSED_AT)
 *         .payload(EMAIL_JOBS.PAYLOAD)
 *         .build();
 * }</pre>
 *
 * @param <R> the jOOQ record type of the table
 */
public final class RoleBinding<R extends Record> {
    /** The most characters a last error keeps: the exception's class and message, cut there. */
    public static final int LAST_ERROR_LONGEST = 1000;
    /** The fewest characters a last-error column must hold, so it keeps more than a class name. */
    public static final int LAST_ERROR_SHORTEST = 100;

    private final Table<R> table;
    private final Map<Role, Field<?>> roles;
    private final boolean fifo;
    private final List<Field<?>> headerFields;
    private final List<Field<?>> data;
    private final Form form;
    private final List<KeyPart> advisoryKey;
    private final ClockSource clock;
    private final Opening opening;
    private final OwnStatements own;
    private final Set<Event> owned;
    private final Set<String> generated;
    private final boolean keysInOrder;
    private final boolean uniqueWhilePending;

    private RoleBinding(Builder<R> b) {
        this.table = b.table;
        this.roles = Collections.unmodifiableMap(new EnumMap<>(b.roles));
        this.fifo = b.fifo;
        this.headerFields = List.copyOf(b.headerFields);
        this.data = List.copyOf(b.data);
        this.form = b.form == null ? Form.ROW_LOCK : b.form;
        this.advisoryKey = b.advisoryKey == null ? List.of() : List.copyOf(b.advisoryKey);
        this.clock = b.clock == null ? ClockSource.HOST : b.clock;
        this.opening = b.opening;
        this.own = OwnStatements.of(b.own);
        this.owned = own.events();
        this.generated = Set.copyOf(b.generatedNames());
        this.keysInOrder = false;
        this.uniqueWhilePending = b.uniqueWhilePending;
    }

    private RoleBinding(RoleBinding<R> o) {
        this.table = o.table;
        this.roles = o.roles;
        this.fifo = o.fifo;
        this.headerFields = o.headerFields;
        this.data = o.data;
        this.form = o.form;
        this.advisoryKey = o.advisoryKey;
        this.clock = o.clock;
        this.opening = o.opening;
        this.own = o.own;
        this.owned = o.owned;
        this.generated = o.generated;
        this.keysInOrder = true;
        this.uniqueWhilePending = o.uniqueWhilePending;
    }

    /** Starts the binding of {@code table}, whose rows are identified by {@code id}. */
    public static <R extends Record> Builder<R> of(Table<R> table, Field<?> id) {
        return new Builder<>(table, id);
    }

    /** The queue table. */
    public Table<R> table() {
        return table;
    }

    /** The table's name as messages print it, qualified with its schema where it has one. */
    public String tableName() {
        return BindingDraft.qualified(table);
    }

    /** The id column. */
    public Field<?> id() {
        return roles.get(Role.ID);
    }

    /** The column playing {@code role}, if the table has one. */
    public Optional<Field<?>> column(Role role) {
        return Optional.ofNullable(roles.get(role));
    }

    /** Whether the table has a column playing {@code role}. */
    public boolean has(Role role) {
        return roles.containsKey(role);
    }

    /** Every role the table plays, with its column, in {@link Role} order. */
    public Map<Role, Field<?>> roles() {
        return roles;
    }

    /**
     * How many characters a last error keeps: {@link #LAST_ERROR_LONGEST}, or the column's declared length
     * where jOOQ's class gives a shorter one; 0 where the table keeps no last error.
     */
    public int lastErrorLength() {
        return BindingColumns.lastErrorLength(table, roles.get(Role.LAST_ERROR));
    }

    /** Whether each group keeps its order: one row of a group in work at a time. */
    public boolean fifo() {
        return fifo;
    }

    /**
     * This binding as a {@code workersByKey(n)} subscription claims with: a claim takes a row only where no
     * unfinished row of the same group and partition key has a smaller id, so each key's rows run one at a
     * time, in id order. A row whose key is NULL is not ordered.
     *
     * @throws BindingException where the table has no partition key column
     */
    public RoleBinding<R> inKeyOrder() {
        if (!roles.containsKey(Role.PARTITION_KEY)) {
            throw new BindingException(tableName(), "rows run in key order only on a table with a partition key"
                    + " column (partitionKey(..))");
        }
        return keysInOrder ? this : new RoleBinding<>(this);
    }

    /** Whether claims take only the first unfinished row of each partition key ({@link #inKeyOrder()}). */
    public boolean keysInOrder() {
        return keysInOrder;
    }

    /**
     * Whether the unique key ({@link Role#UNIQUE_KEY}) is held by pending rows only (those whose processed-at
     * column is NULL), as {@code uniqueKeyWhilePending(..)} declares; false where it is held by every row, or
     * the table has no unique key.
     */
    public boolean uniqueWhilePending() {
        return uniqueWhilePending;
    }

    /** The columns that each hold one header (the header-fields layout), empty otherwise. */
    public List<Field<?>> headerFields() {
        return headerFields;
    }

    /** The table's own columns a row-mode delivery reads beside the roles. */
    public List<Field<?>> data() {
        return data;
    }

    /** Payload mode (a payload column) or row mode (none). */
    public boolean payloadMode() {
        return roles.containsKey(Role.PAYLOAD);
    }

    /** How claims hold rows. */
    public Form form() {
        return form;
    }

    /** The parts of the advisory lock key, in the advisory form; empty otherwise. */
    public List<KeyPart> advisoryKey() {
        return advisoryKey;
    }

    /** Where the statements read "now". */
    public ClockSource clock() {
        return clock;
    }

    /** The declared isolation level or SQLite mode, if any. */
    public Optional<Opening> opening() {
        return Optional.ofNullable(opening);
    }

    /** The service's own statements, which run in place of the dialect's (see {@link Own}). */
    public OwnStatements own() {
        return own;
    }

    /** Whether the service runs {@code event} with its own statement. */
    public boolean owns(Event event) {
        return owned.contains(event);
    }

    /**
     * Whether the database fills {@code column} on insert: an identity, a default or a computed column in jOOQ's
     * metadata, or a column declared {@link Builder#generated generated}.
     */
    public boolean isGenerated(Field<?> column) {
        return generated.contains(column.getName());
    }

    /**
     * The columns a claim of whole rows reads: every column the jOOQ table declares, or, for a table
     * declared without columns, the role columns, header fields and data columns.
     */
    public List<Field<?>> rowColumns() {
        return BindingColumns.rowColumns(table, roles, headerFields, data);
    }

    /**
     * The columns the binding's insert writes, in {@link Role} order: the roles the database does not fill
     * (never processed_at, the lease or the last error, which a new row leaves empty), then header fields,
     * then data.
     */
    public List<Field<?>> insertColumns() {
        return BindingColumns.insertColumns(this, roles, headerFields, data);
    }

    @Override
    public String toString() {
        return "RoleBinding[" + tableName() + ", " + form + ", roles=" + roles.keySet() + "]";
    }

    /**
     * Declares a binding, one setting at a time; {@link #build()} checks every rule a type cannot carry and
     * throws {@link BindingException} naming the table and the rule.
     */
    public static final class Builder<R extends Record> extends UniqueKeySettings<R> {

        private Builder(Table<R> table, Field<?> id) {
            super(table, id);
        }

        @Override
        Builder<R> self() {
            return this;
        }
        /** The group column: a subscription's name selects its group, and every group is a queue. */
        public Builder<R> group(Field<String> column) {
            return role(Role.GROUP, column);
        }

        /** A group column whose groups keep their order: one row of a group in work at a time. */
        public Builder<R> fifoGroup(Field<String> column) {
            fifo = true;
            return role(Role.GROUP, column);
        }

        /** A smaller value is claimed first. */
        public Builder<R> priority(Field<? extends Number> column) {
            return role(Role.PRIORITY, column);
        }

        /** The delivery's partition key. */
        public Builder<R> partitionKey(Field<?> column) {
            return role(Role.PARTITION_KEY, column);
        }

        /** When the row comes due; {@code retryAfter(d)} outcomes move it forward. */
        public Builder<R> retryAfter(Field<? extends Temporal> column) {
            return role(Role.RETRY_AFTER, column);
        }

        /** The delivery count: the first delivery reads 1. */
        public Builder<R> attempt(Field<? extends Number> column) {
            return role(Role.ATTEMPT, column);
        }

        /** Marked on acknowledgement; without it an acknowledgement deletes the row. */
        public Builder<R> processedAt(Field<? extends Temporal> column) {
            return role(Role.PROCESSED_AT, column);
        }

        /** The lease form: the claim writes each row's lease expiry into {@code column}. */
        public Builder<R> lease(Field<? extends Temporal> column) {
            setForm(Form.LEASE);
            return role(Role.LEASE, column);
        }

        /** The delivery's headers in one column: a JSON object of strings, as JSON or text. */
        public Builder<R> headers(Field<?> column) {
            return role(Role.HEADERS, column);
        }

        /** The delivery's headers in columns of their own, one header per column, named as the column. */
        public Builder<R> headerFields(Field<?>... columns) {
            if (headerFieldsSet) {
                problems.add("headerFields(..) is set twice");
            }
            headerFieldsSet = true;
            headerFields.addAll(List.of(columns));
            return this;
        }

        /** Payload mode: the message bytes, in a {@code byte[]}, text or JSON column. */
        public Builder<R> payload(Field<?> column) {
            return role(Role.PAYLOAD, column);
        }

        /**
         * The last error: a text column that every retry, dead letter and drop a failure caused writes with
         * the exception's class and message, cut at {@link RoleBinding#LAST_ERROR_LONGEST} characters (or the
         * column's declared length), so an operator sees why a row failed. An outcome without a failure (an
         * acknowledgement, a handler's own retry) leaves it as it was.
         */
        public Builder<R> lastError(Field<String> column) {
            return role(Role.LAST_ERROR, column);
        }

        /** A row-mode table's own columns, which a claim of rows reads beside the roles. */
        public Builder<R> data(Field<?>... columns) {
            if (dataSet) {
                problems.add("data(..) is set twice");
            }
            dataSet = true;
            data.addAll(List.of(columns));
            return this;
        }

        /**
         * The advisory lock form, with each row's key written as a template: literal text and
         * {@code {column}} placeholders, as in {@code "jobs-{job_id}"}. A placeholder whose column is NULL in
         * a row reads as empty text, so such rows share one key (and run one at a time) rather than going
         * unlocked.
         */
        public Builder<R> advisory(String keyTemplate) {
            Objects.requireNonNull(keyTemplate, "keyTemplate");
            setForm(Form.ADVISORY);
            advisoryTemplate = keyTemplate;
            return this;
        }

        /** The advisory lock form, with each row's key given as its parts. */
        public Builder<R> advisory(KeyPart... parts) {
            setForm(Form.ADVISORY);
            advisoryKey = List.of(parts);
            return this;
        }

        /** Statements read the database's clock instead of binding the host's time. */
        public Builder<R> databaseClock() {
            if (clock != null) {
                problems.add("the clock is set twice");
            }
            clock = ClockSource.DATABASE;
            return this;
        }

        /** The isolation level of the transactions tablequeue opens for a delivery's work. */
        public Builder<R> isolation(Isolation level) {
            return opening(Objects.requireNonNull(level, "level"));
        }

        /** The SQLite mode of the transactions tablequeue opens for a delivery's work. */
        public Builder<R> sqliteMode(SqliteMode mode) {
            return opening(Objects.requireNonNull(mode, "mode"));
        }

        /** Marks columns the database fills on insert, beyond the identities and defaults jOOQ reports. */
        public Builder<R> generated(Field<?>... columns) {
            for (Field<?> column : columns) {
                declaredGenerated.add(column.getName());
            }
            return this;
        }

        /**
         * Checks every rule and returns the binding.
         *
         * @throws BindingException naming the table and every rule the declaration breaks
         */
        public RoleBinding<R> build() {
            List<String> broken = broken();
            if (!broken.isEmpty()) {
                throw new BindingException(qualified(table), String.join("; ", broken));
            }
            return new RoleBinding<>(this);
        }
    }
}
