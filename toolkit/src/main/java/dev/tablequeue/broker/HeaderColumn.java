package dev.tablequeue.broker;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.JSON;
import org.jooq.JSONB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a headers column into a delivery's headers. The column is the service's to fill, and a row whose
 * payload is fine must not be lost to its headers, so what can be read is read: each member of a JSON object
 * is a header, a string as it is, any other value as its JSON text ({@code 42}, {@code true},
 * {@code {"user":7}}), a JSON {@code null} leaves its header out. A column that holds no JSON object (an
 * array, a number, {@code null}, text that is not JSON) gives no headers, with a warning naming the row.
 */
final class HeaderColumn {
    private static final Logger LOG = LoggerFactory.getLogger(HeaderColumn.class);
    // floats as BigDecimal, so a header reads as the digits the row holds ("1.10" stays "1.10")
    private static final ObjectMapper JSON_TREE = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final String table;
    private final String column;

    HeaderColumn(String table, String column) {
        this.table = table;
        this.column = column;
    }

    /** The headers the column's {@code value} holds for row {@code id}; empty where it holds no JSON object. */
    Map<String, String> read(Object id, Object value) {
        String text = text(value);
        if (text == null || text.isBlank()) {
            return Map.of();
        }
        JsonNode node;
        try {
            node = JSON_TREE.readTree(text);
        } catch (Exception e) {
            return unread(id, "it is not JSON (" + firstLine(e.getMessage()) + ")");
        }
        if (node == null || !node.isObject()) {
            return unread(id, "it holds " + (node == null ? "nothing" : excerpt(node.toString()))
                    + ", not a JSON object");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        node.properties().forEach(member -> {
            JsonNode v = member.getValue();
            if (!v.isNull()) {
                headers.put(member.getKey(), v.isTextual() ? v.textValue() : v.toString());
            }
        });
        return Collections.unmodifiableMap(headers);
    }

    private Map<String, String> unread(Object id, String why) {
        LOG.warn("the headers column \"{}\" of row {} of table \"{}\" is read as no headers: {}", column, id, table,
                why);
        return Map.of();
    }

    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof JSON json) {
            return json.data();
        }
        if (value instanceof JSONB jsonb) {
            return jsonb.data();
        }
        return value.toString();
    }

    private static String excerpt(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
