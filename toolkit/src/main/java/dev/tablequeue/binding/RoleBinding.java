package dev.tablequeue.binding;

import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.JSONB;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.TableField;

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
    private final Map<Event, Object> own;
    private final Set<String> generated;

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
        this.own = Collections.unmodifiableMap(new EnumMap<>(b.own));
        this.generated = Set.copyOf(b.generatedNames());
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
        return Builder.qualified(table);
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
        Field<?> column = roles.get(Role.LAST_ERROR);
        if (column == null) {
            return 0;
        }
        int declared = Builder.declaredLength(table, column);
        return declared > 0 ? Math.min(declared, LAST_ERROR_LONGEST) : LAST_ERROR_LONGEST;
    }

    /** Whether each group keeps its order: one row of a group in work at a time. */
    public boolean fifo() {
        return fifo;
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

    /** The events the service runs with its own statements, each with its function (see {@link Own}). */
    public Map<Event, Object> ownEvents() {
        return own;
    }

    /** Whether the service runs {@code event} with its own statement. */
    public boolean owns(Event event) {
        return own.containsKey(event);
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
        Field<?>[] declared = table.fields();
        if (declared.length > 0) {
            return List.of(declared);
        }
        Map<String, Field<?>> columns = new LinkedHashMap<>();
        roles.values().forEach(f -> columns.putIfAbsent(f.getName(), f));
        headerFields.forEach(f -> columns.putIfAbsent(f.getName(), f));
        data.forEach(f -> columns.putIfAbsent(f.getName(), f));
        return List.copyOf(columns.values());
    }

    /**
     * The columns the binding's insert writes, in {@link Role} order: the roles the database does not fill
     * (never processed_at, the lease or the last error, which a new row leaves empty), then header fields,
     * then data.
     */
    public List<Field<?>> insertColumns() {
        List<Field<?>> columns = new ArrayList<>();
        for (Map.Entry<Role, Field<?>> e : roles.entrySet()) {
            Role role = e.getKey();
            if (role == Role.PROCESSED_AT || role == Role.LEASE || role == Role.LAST_ERROR) {
                continue;
            }
            if (!isGenerated(e.getValue())) {
                columns.add(e.getValue());
            }
        }
        for (Field<?> f : headerFields) {
            if (!isGenerated(f)) {
                columns.add(f);
            }
        }
        for (Field<?> f : data) {
            if (!isGenerated(f)) {
                columns.add(f);
            }
        }
        return List.copyOf(columns);
    }

    @Override
    public String toString() {
        return "RoleBinding[" + tableName() + ", " + form + ", roles=" + roles.keySet() + "]";
    }

    /**
     * Declares a binding, one setting at a time; {@link #build()} checks every rule a type cannot carry and
     * throws {@link BindingException} naming the table and the rule.
     */
    public static final class Builder<R extends Record> {
        private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");

        private final Table<R> table;
        private final Map<Role, Field<?>> roles = new EnumMap<>(Role.class);
        private final List<String> problems = new ArrayList<>();
        private final List<Field<?>> headerFields = new ArrayList<>();
        private final List<Field<?>> data = new ArrayList<>();
        private final Map<Event, Object> own = new EnumMap<>(Event.class);
        private final Set<String> declaredGenerated = new LinkedHashSet<>();
        private boolean fifo;
        private Form form;
        private List<KeyPart> advisoryKey;
        private String advisoryTemplate;
        private ClockSource clock;
        private Opening opening;
        private boolean headerFieldsSet;
        private boolean dataSet;

        private Builder(Table<R> table, Field<?> id) {
            this.table = Objects.requireNonNull(table, "a binding needs its table");
            Objects.requireNonNull(id, "binding of table \"" + qualified(table) + "\" needs its id column");
            roles.put(Role.ID, id);
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

        /** The service's own claim, returning the ids it took (not in the advisory form). */
        public Builder<R> ownClaim(Own.Claim claim) {
            return own(Event.CLAIM, claim);
        }

        /** The service's own fetch of claimed ids, e.g. over a join. */
        public Builder<R> ownFetch(Own.Fetch fetch) {
            return own(Event.FETCH, fetch);
        }

        /** The service's own acknowledgement, retry or discard. */
        public Builder<R> own(Event event, Own.Settle settle) {
            if (event != Event.ACK && event != Event.RETRY && event != Event.DISCARD) {
                problems.add("own(" + event + ", ..) takes a settlement of one row (ACK, RETRY or DISCARD): "
                        + event + " is declared with " + ownSetting(event));
            }
            return own(event, (Object) settle);
        }

        /** The service's own delayed retry. */
        public Builder<R> ownRetryAfter(Own.RetryAfter retryAfter) {
            return own(Event.RETRY_AFTER, retryAfter);
        }

        /** The service's own dead-letter move. */
        public Builder<R> ownDeadLetter(Own.DeadLetter deadLetter) {
            return own(Event.DEAD_LETTER, deadLetter);
        }

        /** The service's own lease extension (lease form only). */
        public Builder<R> ownExtend(Own.Extend extend) {
            return own(Event.EXTEND, extend);
        }

        /** The service's own advisory lock; comes with {@link #ownUnlock} (advisory form only). */
        public Builder<R> ownLock(Own.Lock lock) {
            return own(Event.LOCK, lock);
        }

        /** The service's own advisory release; comes with {@link #ownLock} (advisory form only). */
        public Builder<R> ownUnlock(Own.Lock unlock) {
            return own(Event.UNLOCK, unlock);
        }

        /**
         * Checks every rule and returns the binding.
         *
         * @throws BindingException naming the table and every rule the declaration breaks
         */
        public RoleBinding<R> build() {
            List<String> broken = new ArrayList<>(problems);
            checkColumns(broken);
            checkTypes(broken);
            checkForm(broken);
            checkOwnEvents(broken);
            checkMode(broken);
            if (!broken.isEmpty()) {
                throw new BindingException(qualified(table), String.join("; ", broken));
            }
            return new RoleBinding<>(this);
        }

        private Builder<R> role(Role role, Field<?> column) {
            Objects.requireNonNull(column, () -> "binding of table \"" + qualified(table) + "\": "
                    + role.setting() + "(..) takes a column, not null");
            if (roles.containsKey(role)) {
                problems.add(role == Role.GROUP
                        ? "the group is set twice (group(..) and fifoGroup(..) name one role)"
                        : role.setting() + "(..) is set twice");
            }
            roles.put(role, column);
            return this;
        }

        private void setForm(Form next) {
            if (form == next) {
                // A second lease(..) is reported by role(..) as a role set twice.
                if (next == Form.ADVISORY) {
                    problems.add("advisory(..) is set twice");
                }
            } else if (form != null) {
                problems.add("one form per table: " + describe(form) + " and " + describe(next)
                        + " are both declared");
            }
            form = next;
        }

        private Builder<R> opening(Opening next) {
            if (opening != null) {
                problems.add("one opening per table: " + opening + " and " + next + " are both declared");
            }
            opening = next;
            return this;
        }

        private Builder<R> own(Event event, Object function) {
            Objects.requireNonNull(function, "own " + event);
            if (own.containsKey(event)) {
                problems.add("own event " + event + " is set twice");
            }
            own.put(event, function);
            return this;
        }

        private void checkColumns(List<String> broken) {
            Map<String, String> playedBy = new LinkedHashMap<>();
            Map<String, Field<?>> columns = new LinkedHashMap<>();
            for (Map.Entry<Role, Field<?>> e : roles.entrySet()) {
                claim(playedBy, columns, e.getValue(), e.getKey().setting(), broken);
            }
            for (Field<?> f : headerFields) {
                claim(playedBy, columns, f, "headerFields", broken);
            }
            for (Field<?> f : data) {
                claim(playedBy, columns, f, "data", broken);
            }
            boolean declared = table.fields().length > 0;
            for (Field<?> f : columns.values()) {
                String column = f.getName();
                String other = otherTable(f);
                if (other != null) {
                    broken.add("column \"" + column + "\" (" + playedBy.get(column)
                            + ") is not a column of the table but of \"" + other + "\"");
                } else if (declared && table.field(column) == null) {
                    broken.add("column \"" + column + "\" (" + playedBy.get(column)
                            + ") is not a column of the table");
                }
            }
        }

        /** The table a column belongs to, where it is a column of a table other than this one; null otherwise. */
        private String otherTable(Field<?> f) {
            return f instanceof TableField<?, ?> column && column.getTable() != null && !column.getTable().equals(table)
                    ? qualified(column.getTable())
                    : null;
        }

        private static void claim(Map<String, String> playedBy, Map<String, Field<?>> columns, Field<?> f, String what,
                List<String> broken) {
            String before = playedBy.putIfAbsent(f.getName(), what);
            columns.putIfAbsent(f.getName(), f);
            if (before != null) {
                broken.add("column \"" + f.getName() + "\" plays two roles: " + before + " and " + what);
            }
        }

        private void checkTypes(List<String> broken) {
            Field<?> payload = roles.get(Role.PAYLOAD);
            if (payload != null) {
                Class<?> type = payload.getType();
                if (type != byte[].class && type != String.class && type != JSON.class && type != JSONB.class) {
                    broken.add("payload column \"" + payload.getName() + "\" must hold byte[], String, JSON or"
                            + " JSONB, not " + type.getSimpleName());
                }
            }
            Field<?> headers = roles.get(Role.HEADERS);
            if (headers != null) {
                Class<?> type = headers.getType();
                if (type != String.class && type != JSON.class && type != JSONB.class) {
                    broken.add("headers column \"" + headers.getName() + "\" must hold String, JSON or JSONB,"
                            + " not " + type.getSimpleName());
                }
            }
            Field<?> lastError = roles.get(Role.LAST_ERROR);
            if (lastError != null) {
                checkLastError(lastError, broken);
            }
            if (!headerFields.isEmpty() && headers != null) {
                broken.add("headers(..) and headerFields(..) are two layouts of the headers: declare one");
            }
        }

        private void checkLastError(Field<?> column, List<String> broken) {
            String name = "lastError column \"" + column.getName() + "\"";
            if (column.getType() != String.class) {
                broken.add(name + " must hold String (text), not " + column.getType().getSimpleName());
                return;
            }
            int length = declaredLength(table, column);
            if (length > 0 && length < LAST_ERROR_SHORTEST) {
                broken.add(name + " holds " + length + " characters, and a last error needs at least "
                        + LAST_ERROR_SHORTEST + " to say more than the exception's class");
            }
            DataType<?> type = declared(table, column).getDataType();
            if (!type.nullable() && !type.defaulted()) {
                broken.add(name + " is NOT NULL without a default, and a new row has no error: the insert"
                        + " would fail, so declare it nullable");
            }
        }

        /** {@code column} as the table declares it (with jOOQ's metadata), or as given where it does not. */
        private static Field<?> declared(Table<?> table, Field<?> column) {
            Field<?> declared = table.field(column.getName());
            return declared == null ? column : declared;
        }

        /** The declared length of a text column, 0 where jOOQ knows none (TEXT, CLOB). */
        static int declaredLength(Table<?> table, Field<?> column) {
            DataType<?> type = declared(table, column).getDataType();
            return type.hasLength() ? type.length() : 0;
        }

        private void checkForm(List<String> broken) {
            Form f = form == null ? Form.ROW_LOCK : form;
            if (f == Form.LEASE && clock == ClockSource.DATABASE) {
                broken.add("the lease form reads the host's clock (each settlement names the expiry its claim"
                        + " wrote): lease(..) and databaseClock() cannot go together");
            }
            if (f == Form.ADVISORY) {
                if (fifo) {
                    broken.add("FIFO groups are not taken in the advisory form: put the group's column into the"
                            + " lock key instead of fifoGroup(..)");
                }
                if (advisoryTemplate != null) {
                    advisoryKey = parseKey(advisoryTemplate, broken);
                } else if (advisoryKey.isEmpty()) {
                    broken.add("the advisory lock key is empty");
                } else if (advisoryKey.stream().noneMatch(p -> p instanceof KeyPart.Column)) {
                    broken.add("the advisory lock key names no column, so every row would share one lock");
                } else {
                    checkKeyColumns(broken);
                }
            }
        }

        /**
         * Splits a key template into its parts, reporting every fault of the template itself; the columns it
         * names are looked up in the table, so each part holds the table's own field.
         */
        private List<KeyPart> parseKey(String template, List<String> broken) {
            String quoted = "the advisory lock key \"" + template + "\"";
            if (template.isEmpty()) {
                broken.add("the advisory lock key is empty");
                return List.of();
            }
            List<KeyPart> parts = new ArrayList<>();
            Matcher m = PLACEHOLDER.matcher(template);
            int at = 0;
            int placeholders = 0;
            boolean balanced = true;
            while (m.find()) {
                balanced &= literal(template.substring(at, m.start()), parts);
                placeholders++;
                String name = m.group(1).trim();
                Field<?> column = name.isEmpty() ? null : table.field(name);
                if (name.isEmpty()) {
                    broken.add(quoted + " has a placeholder {} that names no column");
                } else if (column == null) {
                    broken.add(quoted + " names column \"" + name + "\", which the table does not have");
                } else {
                    parts.add(KeyPart.column(column));
                }
                at = m.end();
            }
            balanced &= literal(template.substring(at), parts);
            if (!balanced) {
                broken.add(quoted + " has an unbalanced brace");
            } else if (placeholders == 0) {
                broken.add(quoted + " names no column, so every row would share one lock");
            }
            return parts;
        }

        /** Adds {@code text} as a literal part where it is not empty; false if it holds a brace. */
        private static boolean literal(String text, List<KeyPart> parts) {
            if (!text.isEmpty()) {
                parts.add(KeyPart.literal(text));
            }
            return text.indexOf('{') < 0 && text.indexOf('}') < 0;
        }

        private void checkKeyColumns(List<String> broken) {
            for (KeyPart part : advisoryKey) {
                if (!(part instanceof KeyPart.Column c)) {
                    continue;
                }
                String column = c.field().getName();
                String other = otherTable(c.field());
                if (other != null) {
                    broken.add("the advisory lock key names column \"" + column
                            + "\", which is not a column of the table but of \"" + other + "\"");
                } else if (table.fields().length > 0 && table.field(column) == null) {
                    broken.add("the advisory lock key names column \"" + column + "\", which the table does not have");
                }
            }
        }

        private void checkOwnEvents(List<String> broken) {
            Form f = form == null ? Form.ROW_LOCK : form;
            if (f == Form.ADVISORY && own.containsKey(Event.CLAIM)) {
                broken.add("an own claim is not taken in the advisory form: the dialect selects the candidates"
                        + " and takes each row");
            }
            if (own.containsKey(Event.EXTEND) && f != Form.LEASE) {
                broken.add("an own extend is only taken in the lease form");
            }
            boolean lock = own.containsKey(Event.LOCK);
            boolean unlock = own.containsKey(Event.UNLOCK);
            if ((lock || unlock) && f != Form.ADVISORY) {
                broken.add("an own lock and unlock are only taken in the advisory form");
            } else if (lock != unlock) {
                broken.add("an own lock and unlock come together: " + (lock ? "ownUnlock" : "ownLock")
                        + "(..) is missing");
            }
        }

        private void checkMode(List<String> broken) {
            // data(..) is taken in both modes: in row mode its columns are read with the row, and in either
            // mode the binding's insert writes them (a payout's account, say, which its lock key reads).
        }

        private Set<String> generatedNames() {
            Set<String> names = new LinkedHashSet<>(declaredGenerated);
            List<Field<?>> all = new ArrayList<>(roles.values());
            all.addAll(headerFields);
            all.addAll(data);
            for (Field<?> f : all) {
                Field<?> declared = table.field(f.getName());
                Field<?> meta = declared == null ? f : declared;
                DataType<?> type = meta.getDataType();
                if (type.identity() || (type.defaulted() && !defaultsToNull(type)) || type.computedOnServer()) {
                    names.add(f.getName());
                }
            }
            return names;
        }

        /**
         * Whether a column's default is NULL: MariaDB reports {@code DEFAULT NULL} for every nullable column,
         * and such a column is the insert's to write, not the database's to fill.
         */
        private static boolean defaultsToNull(DataType<?> type) {
            Field<?> value = type.defaultValue();
            return value == null || "null".equalsIgnoreCase(DSL.using(SQLDialect.DEFAULT).render(value).trim());
        }

        private static String ownSetting(Event event) {
            return switch (event) {
                case CLAIM -> "ownClaim(..)";
                case FETCH -> "ownFetch(..)";
                case ACK, RETRY, DISCARD -> "own(" + event + ", ..)";
                case RETRY_AFTER -> "ownRetryAfter(..)";
                case DEAD_LETTER -> "ownDeadLetter(..)";
                case EXTEND -> "ownExtend(..)";
                case LOCK -> "ownLock(..)";
                case UNLOCK -> "ownUnlock(..)";
            };
        }

        private static String describe(Form form) {
            return switch (form) {
                case ROW_LOCK -> "the row lock";
                case LEASE -> "lease(..)";
                case ADVISORY -> "advisory(..)";
            };
        }

        static String qualified(Table<?> table) {
            return table.getSchema() == null || table.getSchema().getName().isEmpty()
                    ? table.getName()
                    : table.getSchema().getName() + "." + table.getName();
        }
    }
}
