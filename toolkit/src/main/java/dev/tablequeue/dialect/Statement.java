package dev.tablequeue.dialect;

import java.util.List;
import java.util.Objects;

/**
 * A statement built once, when a subscription opens: its SQL text with {@code ?} placeholders and the
 * params it binds, in order.
 *
 * @param purpose what the statement does, as error messages name it ("claim", "ack", ...)
 * @param sql the text sent to the server
 * @param params what each {@code ?} binds, in order
 */
public record Statement(String purpose, String sql, List<Param> params) {
    public Statement {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(sql, "sql");
        params = List.copyOf(params);
    }

    @Override
    public String toString() {
        return purpose + ": " + sql;
    }
}
