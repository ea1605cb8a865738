package dev.tablequeue.broker;

import dev.tablequeue.HeaderException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.Field;

/**
 * Lays a published message out as the values of its binding's insert: the name in the group column, the
 * encoded payload, the headers in their column or columns, and the values the message sets itself.
 */
final class MessageRows {
    private final Codec codec;

    MessageRows(Codec codec) {
        this.codec = codec;
    }

    /** The values of the binding's insert columns for {@code message}, in order. */
    List<Object> values(RoleBinding<?> binding, Message message) {
        Map<String, String> headers = message.headers();
        Set<String> headerFields = new HashSet<>();
        binding.headerFields().forEach(f -> headerFields.add(f.getName()));
        if (!binding.has(Role.HEADERS)) {
            for (String header : headers.keySet()) {
                if (!headerFields.contains(header) && !message.values().containsKey(header)) {
                    throw new HeaderException("table \"" + binding.tableName() + "\" keeps no header \"" + header
                            + "\" (it keeps " + (headerFields.isEmpty() ? "no headers" : headerFields)
                            + "): the publish of " + message.name() + " would lose it");
                }
            }
        }
        Set<String> written = new HashSet<>();
        binding.insertColumns().forEach(f -> written.add(f.getName()));
        for (String column : message.values().keySet()) {
            if (!written.contains(column)) {
                throw new TableQueueException("the publish of " + message.name() + " sets column \"" + column
                        + "\", which the insert of table \"" + binding.tableName() + "\" does not write (it writes "
                        + written + "; the database fills the others): declare it with data(..) or leave it out");
            }
        }
        List<Object> values = new ArrayList<>();
        for (Field<?> column : binding.insertColumns()) {
            String name = column.getName();
            if (message.values().containsKey(name)) {
                values.add(message.values().get(name));
            } else if (binding.column(Role.GROUP).map(f -> f.getName().equals(name)).orElse(false)) {
                values.add(message.name());
            } else if (binding.column(Role.PAYLOAD).map(f -> f.getName().equals(name)).orElse(false)) {
                values.add(payload(binding, column, message));
            } else if (binding.column(Role.HEADERS).map(f -> f.getName().equals(name)).orElse(false)) {
                values.add(RowReader.writeHeaders(headers));
            } else if (headerFields.contains(name)) {
                values.add(headers.get(name));
            } else {
                values.add(null);
            }
        }
        return values;
    }

    /** The id {@code message} gives its row (a value of the binding's id column), in the column's type; or null. */
    static Object givenId(RoleBinding<?> binding, Message message) {
        Object id = message.values().get(binding.id().getName());
        return id == null ? null : binding.id().getDataType().convert(id);
    }

    private Object payload(RoleBinding<?> binding, Field<?> column, Message message) {
        byte[] bytes = encode(message);
        if (bytes == null) {
            // a row without a payload would reach no handler: it would fail to decode on every claim
            throw new TableQueueException("the publish of " + message.name() + " into \"" + binding.tableName()
                    + "\" carries no payload, and the table's payload column \"" + column.getName() + "\" (the"
                    + " payload role) needs one: publish Message.of(name, payload) with a payload that is not null");
        }
        return column.getType() == byte[].class ? bytes : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The message's payload through the codec; null where it carries none. */
    byte[] encode(Message message) {
        if (message.payload() == null) {
            return null;
        }
        try {
            return codec.encode(message.payload());
        } catch (Exception e) {
            throw new TableQueueException("the payload of " + message.name() + " does not encode: " + e.getMessage(),
                    e);
        }
    }
}
