package dev.tablequeue.dialect;

import dev.tablequeue.internal.Binds;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;

/**
 * The rows of a statement over many rows as one JSON document, {@code [[v0, v1, ..], ..]}, for the dialects
 * that read rows from JSON ({@code JSON_TABLE} on MySQL and MariaDB, {@code json_each} on SQLite): numbers and
 * booleans as themselves, bytes as hex text, local times as {@code yyyy-MM-dd HH:mm:ss.SSSSSS} (UTC, as the
 * dialects bind them), everything else as text.
 */
final class JsonRows {
    private static final HexFormat HEX = HexFormat.of();
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    private JsonRows() {}

    /** The values of {@code rows}' params of each of {@code each}, one JSON array per row. */
    static String of(Param rows, List<Binds> each, QueueDialect dialect) {
        List<Param> perRow = rows.perRow();
        StringBuilder json = new StringBuilder(32 * each.size() * perRow.size() + 2).append('[');
        for (int r = 0; r < each.size(); r++) {
            json.append(r == 0 ? "[" : ",[");
            for (int i = 0; i < perRow.size(); i++) {
                if (i > 0) {
                    json.append(',');
                }
                value(json, each.get(r).valueOf(perRow.get(i), dialect));
            }
            json.append(']');
        }
        return json.append(']').toString();
    }

    private static void value(StringBuilder json, Object value) {
        if (value == null) {
            json.append("null");
        } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer
                || value instanceof Short || value instanceof Byte || value instanceof java.math.BigInteger) {
            json.append(value);
        } else if (value instanceof byte[] bytes) {
            json.append('"').append(HEX.formatHex(bytes)).append('"');
        } else if (value instanceof LocalDateTime time) {
            json.append('"').append(LOCAL.format(time)).append('"');
        } else {
            text(json, value.toString());
        }
    }

    private static void text(StringBuilder json, String s) {
        json.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
