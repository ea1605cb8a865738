package dev.tablequeue.broker;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tablequeue.HeaderException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.temporal.TemporalAccessor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * Reads claimed rows off a JDBC result set: the roles a delivery reads in payload mode, or the whole row as
 * a record of the table in row mode. A column that does not decode fails that row alone; an id that does
 * not read fails the claim, since nothing could settle the row.
 */
final class RowReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RoleBinding<?> binding;
    private final boolean rows;
    private final DSLContext records;
    private final String id;
    private final String attempt;
    private final String key;
    private final String headers;
    private final HeaderColumn headerColumn;
    private final String payload;
    private final boolean textPayload;
    private final List<Field<?>> rowColumns;

    RowReader(RoleBinding<?> binding, boolean rows, DSLContext records) {
        this.binding = binding;
        this.rows = rows;
        this.records = records;
        this.id = binding.id().getName();
        this.attempt = binding.column(Role.ATTEMPT).map(Field::getName).orElse(null);
        this.key = binding.column(Role.PARTITION_KEY).map(Field::getName).orElse(null);
        this.headers = binding.column(Role.HEADERS).map(Field::getName).orElse(null);
        this.headerColumn = new HeaderColumn(binding.tableName(), headers);
        this.payload = binding.column(Role.PAYLOAD).map(Field::getName).orElse(null);
        this.textPayload = binding.column(Role.PAYLOAD).map(f -> f.getType() != byte[].class).orElse(false);
        this.rowColumns = binding.rowColumns();
    }

    /** The current row of {@code rs}. */
    ClaimedRow read(ResultSet rs) throws SQLException {
        Object raw = rs.getObject(id);
        // the id in the Java type of its column, whatever the driver returned (SQLite reads small ids as Integer)
        Object rowId = raw == null ? null : converted(binding.id().getDataType(), raw);
        if (rowId == null) {
            throw new SQLException("a claimed row of " + binding.tableName() + " has no id");
        }
        OptionalInt rowAttempt = readAttempt(rs);
        if (rows) {
            try {
                Record record = record(rs);
                return new ClaimedRow(rowId, rowAttempt, key == null ? null : record.get(key),
                        headers != null ? headerColumn.read(rowId, record.get(headers)) : headerFields(record::get),
                        null, record, null);
            } catch (RuntimeException | SQLException e) {
                return new ClaimedRow(rowId, rowAttempt, null, Map.of(), null, null, e);
            }
        }
        try {
            Object partition = key == null ? null : rs.getObject(key);
            Map<String, String> headerMap = headers != null
                    ? headerColumn.read(rowId, rs.getString(headers))
                    : headerFields(name -> {
                        try {
                            return rs.getObject(name);
                        } catch (SQLException e) {
                            throw new HeaderException("header column " + name + " of " + binding.tableName()
                                    + " does not read: " + e.getMessage(), e);
                        }
                    });
            byte[] bytes = null;
            if (payload != null) {
                bytes = textPayload
                        ? bytes(rs.getString(payload))
                        : rs.getBytes(payload);
            }
            return new ClaimedRow(rowId, rowAttempt, partition, headerMap, bytes, null, null);
        } catch (RuntimeException | SQLException e) {
            return new ClaimedRow(rowId, rowAttempt, null, Map.of(), null, null, e);
        }
    }

    /**
     * A row the service's own fetch read, by column name. Where the claim stamped the row, the attempt it
     * reads was counted by the claim, and the delivery reports the one before.
     */
    ClaimedRow fromRecord(Record r, boolean stamped) {
        Object raw = r.get(id);
        Object rowId = raw == null ? null : converted(binding.id().getDataType(), raw);
        OptionalInt rowAttempt = OptionalInt.empty();
        if (attempt != null && r.field(attempt) != null && r.get(attempt) instanceof Number n) {
            rowAttempt = OptionalInt.of(stamped ? n.intValue() - 1 : n.intValue());
        }
        try {
            Object partition = key == null || r.field(key) == null ? null : r.get(key);
            Map<String, String> headerMap = headers != null && r.field(headers) != null
                    ? headerColumn.read(rowId, r.get(headers))
                    : headerFields(name -> r.field(name) == null ? null : r.get(name));
            if (rows) {
                return new ClaimedRow(rowId, rowAttempt, partition, headerMap, null, r.into(binding.table()), null);
            }
            Object value = payload == null ? null : r.get(payload);
            byte[] bytes = value instanceof byte[] b ? b : value == null ? null : bytes(String.valueOf(value));
            return new ClaimedRow(rowId, rowAttempt, partition, headerMap, bytes, null, null);
        } catch (RuntimeException e) {
            return new ClaimedRow(rowId, rowAttempt, null, Map.of(), null, null, e);
        }
    }

    private OptionalInt readAttempt(ResultSet rs) {
        if (attempt == null) {
            return OptionalInt.empty();
        }
        try {
            Object value = rs.getObject(attempt);
            return value instanceof Number n ? OptionalInt.of(n.intValue()) : OptionalInt.empty();
        } catch (SQLException e) {
            return OptionalInt.empty();
        }
    }

    @SuppressWarnings("unchecked")
    private Record record(ResultSet rs) throws SQLException {
        Record record = records.newRecord(binding.table());
        for (int i = 0; i < rowColumns.size(); i++) {
            Field<Object> f = (Field<Object>) rowColumns.get(i);
            Object raw = rs.getObject(i + 1);
            record.set(f, raw == null ? null : converted(f.getDataType(), raw));
        }
        unchanged(record);
        return record;
    }

    /**
     * {@code raw} in {@code type}'s Java type: as it is where the driver returned that type already (no
     * allocation on the hot path), else converted as jOOQ converts a bind value of the type (SQLite reads
     * small ids as Integer, say). {@code DataType.convert(Object)}, which did this, is marked for removal.
     */
    static Object converted(DataType<?> type, Object raw) {
        return type.getType().isInstance(raw) ? raw : DSL.val(raw, type).getValue();
    }

    /** Marks a record read from the database as unchanged; jOOQ 3.19, which the library supports, has no touched(). */
    @SuppressWarnings("removal")
    private static void unchanged(Record record) {
        record.changed(false);
    }

    private interface Column {
        Object value(String name);
    }

    private Map<String, String> headerFields(Column column) {
        if (binding.headerFields().isEmpty()) {
            return Map.of();
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (Field<?> f : binding.headerFields()) {
            Object value = column.value(f.getName());
            if (value != null) {
                map.put(f.getName(), text(value));
            }
        }
        return map;
    }

    private static String text(Object value) {
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (value instanceof java.sql.Timestamp ts) {
            return ts.toInstant().toString();
        }
        if (value instanceof TemporalAccessor) {
            return value.toString();
        }
        return String.valueOf(value);
    }

    static String writeHeaders(Map<String, String> headers) {
        try {
            return JSON.writeValueAsString(headers);
        } catch (Exception e) {
            throw new HeaderException("headers do not encode: " + e.getMessage(), e);
        }
    }

    private static byte[] bytes(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    /** A context that builds detached records. */
    static DSLContext records(org.jooq.SQLDialect dialect) {
        return DSL.using(dialect);
    }
}
