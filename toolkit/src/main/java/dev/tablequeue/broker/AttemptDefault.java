package dev.tablequeue.broker;

import dev.tablequeue.SchemaException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jooq.Field;
import org.jooq.Table;

/**
 * Checks, when a subscription opens, that the attempt column of its table starts a new row at 1, reading the
 * column's default from the database (not from jOOQ's classes, which may be older than the schema).
 *
 * <p>The count is defined so that the first delivery reads 1 and {@code maxAttempts(n)} runs the handler n
 * times. A column that starts at 0 would make every cap run the handler once more, and one without a
 * default would leave rows the service inserts itself without a count; so both are refused.
 */
final class AttemptDefault {
    private AttemptDefault() {}

    /**
     * @throws SchemaException naming {@code user} (the queue, or the binding the check reads), the table and the
     *     column, where the default is not 1
     */
    static void check(Connection c, RoleBinding<?> binding, String user) throws SQLException {
        Optional<Field<?>> attempt = binding.column(Role.ATTEMPT);
        if (attempt.isEmpty()) {
            return;
        }
        String column = attempt.get().getName();
        Optional<String> declared = columnDefault(c, binding.table(), column);
        if (declared.isEmpty() || startsAtOne(declared.get())) {
            return;
        }
        String value = declared.get();
        throw new SchemaException(user + ": the attempt column \"" + column + "\" of table \""
                + binding.tableName() + "\" " + (value.isEmpty() ? "has no default" : "defaults to " + value)
                + ", and tablequeue counts a row's first delivery as attempt 1 (so maxAttempts(n) runs the handler"
                + " n times); a row that starts elsewhere would run its handler "
                + (value.isEmpty() ? "without a count" : "a different number of times")
                + ": declare the column DEFAULT 1");
    }

    /**
     * The column's default as the driver reports it ("" where it has none), or empty where the driver does
     * not find the column (the statements prepared already, so that is a driver's quirk, not a missing column).
     */
    private static Optional<String> columnDefault(Connection c, Table<?> table, String column) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        String schema = table.getSchema() != null && !table.getSchema().getName().isEmpty()
                ? table.getSchema().getName()
                : c.getSchema();
        try (ResultSet rs = meta.getColumns(c.getCatalog(), schema, table.getName(), null)) {
            while (rs.next()) {
                if (table.getName().equals(rs.getString("TABLE_NAME")) && column.equals(rs.getString("COLUMN_NAME"))) {
                    String value = rs.getString("COLUMN_DEF");
                    return Optional.of(value == null ? "" : value.trim());
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a default reads as the number 1: {@code 1}, {@code (1)}, {@code '1'}, {@code '1'::smallint}. */
    static boolean startsAtOne(String declared) {
        String value = declared.trim();
        int cast = value.indexOf("::");
        if (cast >= 0) {
            value = value.substring(0, cast).trim();
        }
        while (value.length() >= 2 && (value.startsWith("(") && value.endsWith(")")
                || value.startsWith("'") && value.endsWith("'"))) {
            value = value.substring(1, value.length() - 1).trim();
        }
        return value.equals("1");
    }
}
