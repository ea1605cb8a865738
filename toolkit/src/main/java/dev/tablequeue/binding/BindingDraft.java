package dev.tablequeue.binding;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
import org.jooq.TableField;
import org.jooq.impl.DSL;

/**
 * What a {@link RoleBinding.Builder} has declared so far, and every rule {@link RoleBinding.Builder#build()}
 * checks it against: the setters record each setting (and a setting made twice as a problem), and
 * {@link #broken()} lists every rule the declaration breaks, so the builder reports them all at once.
 */
abstract class BindingDraft<R extends Record> {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");

    final Table<R> table;
    final Map<Role, Field<?>> roles = new EnumMap<>(Role.class);
    final List<String> problems = new ArrayList<>();
    final List<Field<?>> headerFields = new ArrayList<>();
    final List<Field<?>> data = new ArrayList<>();
    final Map<Event, Object> own = new EnumMap<>(Event.class);
    final Set<String> declaredGenerated = new LinkedHashSet<>();
    boolean fifo;
    Form form;
    List<KeyPart> advisoryKey;
    String advisoryTemplate;
    ClockSource clock;
    Opening opening;
    boolean headerFieldsSet;
    boolean dataSet;
    boolean uniqueWhilePending;

    BindingDraft(Table<R> table, Field<?> id) {
        this.table = Objects.requireNonNull(table, "a binding needs its table");
        Objects.requireNonNull(id, "binding of table \"" + qualified(table) + "\" needs its id column");
        roles.put(Role.ID, id);
    }


    /** The builder itself, which each setting returns. */
    abstract RoleBinding.Builder<R> self();

    /** Every problem of the declaration: the settings made twice or in conflict, then each rule it breaks. */
    List<String> broken() {
        List<String> broken = new ArrayList<>(problems);
        checkColumns(broken);
        checkTypes(broken);
        checkForm(broken);
        checkOwnEvents(broken);
        if (uniqueWhilePending && !roles.containsKey(Role.PROCESSED_AT)) {
            broken.add("uniqueKeyWhilePending(..) frees a key when its row is acknowledged, and the table has no"
                    + " processedAt(..) column: an acknowledgement deletes the row, so declare uniqueKey(..)");
        }
        // data(..) is taken in both modes: in row mode its columns are read with the row, and in either
        // mode the binding's insert writes them (a payout's account, say, which its lock key reads).
        return broken;
    }

    RoleBinding.Builder<R> role(Role role, Field<?> column) {
        Objects.requireNonNull(column, () -> "binding of table \"" + qualified(table) + "\": "
                + role.setting() + "(..) takes a column, not null");
        if (roles.containsKey(role)) {
            problems.add(role == Role.GROUP
                    ? "the group is set twice (group(..) and fifoGroup(..) name one role)"
                    : role.setting() + "(..) is set twice");
        }
        roles.put(role, column);
        return self();
    }

    void setForm(Form next) {
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

    RoleBinding.Builder<R> opening(Opening next) {
        if (opening != null) {
            problems.add("one opening per table: " + opening + " and " + next + " are both declared");
        }
        opening = next;
        return self();
    }

    RoleBinding.Builder<R> own(Event event, Object function) {
        Objects.requireNonNull(function, "own " + event);
        if (own.containsKey(event)) {
            problems.add("own event " + event + " is set twice");
        }
        own.put(event, function);
        return self();
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
        if (length > 0 && length < RoleBinding.LAST_ERROR_SHORTEST) {
            broken.add(name + " holds " + length + " characters, and a last error needs at least "
                    + RoleBinding.LAST_ERROR_SHORTEST + " to say more than the exception's class");
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

    Set<String> generatedNames() {
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

    static String ownSetting(Event event) {
        return switch (event) {
            case CLAIM -> "ownClaim(..)";
            case FETCH -> "ownFetch(..)";
            case ACK, RETRY, DROP -> "own(" + event + ", ..)";
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
