package dev.tablequeue.broker;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jooq.Field;

/**
 * A message to publish into a queue table: its name (the group, in a table with one), its payload (bytes, or
 * an object the broker's codec encodes), its headers, and values for other columns the binding inserts
 * (priority, partition key, a due time, data columns).
 */
public final class Message {
    private final String name;
    private final Object payload;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Map<String, Object> values = new LinkedHashMap<>();

    private Message(String name, Object payload) {
        this.name = Objects.requireNonNull(name, "name");
        this.payload = payload;
    }

    /** A message named {@code name} carrying {@code payload} (bytes as they are, anything else encoded). */
    public static Message of(String name, Object payload) {
        return new Message(name, payload);
    }

    /** A row-mode message: no payload, only column values set with {@link #set}. */
    public static Message row(String name) {
        return new Message(name, null);
    }

    /** Adds a header. */
    public Message header(String key, String value) {
        headers.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** Sets the value of a column the binding's insert writes (by the column's name). */
    public <T> Message set(Field<T> column, T value) {
        values.put(column.getName(), value);
        return this;
    }

    public String name() {
        return name;
    }

    public Object payload() {
        return payload;
    }

    public Map<String, String> headers() {
        return Collections.unmodifiableMap(headers);
    }

    /** The column values set with {@link #set}, by column name. */
    public Map<String, Object> values() {
        return Collections.unmodifiableMap(values);
    }
}
