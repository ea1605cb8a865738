package dev.tablequeue.internal;

import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The values one execution of a {@link Statement} binds, by {@link Param.Kind}. A caller sets the values its
 * statement needs; {@link StatementBinder} reads them in the statement's order. Not thread-safe: one per
 * execution, or one per worker reused.
 */
public final class Binds {
    private Object id;
    private List<?> ids = List.of();
    private String group;
    private Instant now;
    private Instant retryAt;
    private Duration delay;
    private int limit;
    private Instant leaseUntil;
    private Instant leaseHeld;
    private String destination;
    private String key;
    private List<String> heldKeys = List.of();
    private String lastError;
    private List<?> values = List.of();
    private List<Binds> rows = List.of();
    private java.util.function.BiFunction<Param, List<Binds>, Object> rowsEncoding;

    public Binds id(Object value) {
        this.id = value;
        return this;
    }

    public Binds ids(List<?> value) {
        this.ids = value;
        return this;
    }

    public Binds group(String value) {
        this.group = value;
        return this;
    }

    public Binds now(Instant value) {
        this.now = value;
        return this;
    }

    public Binds retryAt(Instant value) {
        this.retryAt = value;
        return this;
    }

    public Binds delay(Duration value) {
        this.delay = value;
        return this;
    }

    public Binds limit(int value) {
        this.limit = value;
        return this;
    }

    public Binds leaseUntil(Instant value) {
        this.leaseUntil = value;
        return this;
    }

    public Binds leaseHeld(Instant value) {
        this.leaseHeld = value;
        return this;
    }

    public Binds destination(String value) {
        this.destination = value;
        return this;
    }

    public Binds heldKeys(List<String> values) {
        this.heldKeys = List.copyOf(values);
        return this;
    }

    public Binds key(String value) {
        this.key = value;
        return this;
    }

    /** Why the row failed, for the last-error column; null keeps what the column holds. */
    public Binds lastError(String value) {
        this.lastError = value;
        return this;
    }

    /** The values of an insert, in the order of the binding's insert columns. */
    public Binds values(List<?> value) {
        this.values = value;
        return this;
    }

    /** The values of each row a statement over many rows writes ({@link Param.Kind#ROWS}). */
    public Binds rows(List<Binds> value) {
        this.rows = value;
        return this;
    }

    /**
     * How a {@link Param.Kind#ROWS} param's JDBC value is made from the rows: the values of its
     * {@link Param#perRow} params of each row, as the statement that binds it reads them (the dialect's).
     */
    public Binds rowsEncoding(java.util.function.BiFunction<Param, List<Binds>, Object> encoding) {
        this.rowsEncoding = encoding;
        return this;
    }

    /** A copy, whose values a caller may set without changing these. */
    public Binds copy() {
        Binds c = new Binds();
        c.id = id;
        c.ids = ids;
        c.group = group;
        c.now = now;
        c.retryAt = retryAt;
        c.delay = delay;
        c.limit = limit;
        c.leaseUntil = leaseUntil;
        c.leaseHeld = leaseHeld;
        c.destination = destination;
        c.key = key;
        c.heldKeys = heldKeys;
        c.lastError = lastError;
        c.values = values;
        c.rows = rows;
        c.rowsEncoding = rowsEncoding;
        return c;
    }

    /**
     * The value set for {@code param}, as set (an {@link Instant}, a {@link Duration}), or null where none
     * is: what tells whether two executions of one statement bind the same.
     */
    public Object valueSet(Param param) {
        return switch (param.kind()) {
            case ID -> ids.isEmpty() ? id : ids.get(param.index());
            case GROUP -> group;
            case NOW -> now;
            case RETRY_AT -> retryAt;
            case DELAY -> delay;
            case LIMIT -> limit;
            case LEASE_UNTIL -> leaseUntil;
            case LEASE_HELD -> leaseHeld;
            case DESTINATION -> destination;
            case KEY -> key;
            case HELD_KEYS -> heldKeys;
            case LAST_ERROR -> lastError;
            case VALUE -> values.get(param.index());
            case CONSTANT -> param.constant();
            case ROWS -> rows;
        };
    }

    /** The JDBC value {@code param} takes, converted by {@code dialect} where it is a time or a delay. */
    public Object valueOf(Param param, QueueDialect dialect) {
        return switch (param.kind()) {
            case ID -> ids.isEmpty() ? id : ids.get(param.index());
            case GROUP -> group;
            case NOW -> time(dialect, param, now);
            case RETRY_AT -> time(dialect, param, retryAt);
            case DELAY -> dialect.delayValue(require(delay, param));
            case LIMIT -> limit;
            case LEASE_UNTIL -> time(dialect, param, leaseUntil);
            case LEASE_HELD -> time(dialect, param, leaseHeld);
            case DESTINATION -> destination;
            case KEY -> key;
            case HELD_KEYS -> heldKeys.toArray(String[]::new);
            case LAST_ERROR -> lastError;
            case VALUE -> values.get(param.index());
            case CONSTANT -> param.constant();
            case ROWS -> require(rowsEncoding, param).apply(param, rows);
        };
    }

    private static Object time(QueueDialect dialect, Param param, Instant value) {
        return dialect.timeValue(param.column(), require(value, param));
    }

    private static <T> T require(T value, Param param) {
        if (value == null) {
            throw new IllegalStateException("no value set for " + param.kind());
        }
        return value;
    }
}
