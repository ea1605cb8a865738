package dev.tablequeue.dialect;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementWriter;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DataType;
import org.jooq.Field;

/**
 * How a dialect writes one outcome to many rows in one statement: the values each row has of its own (its
 * id, its times, its lease token, its last error) are bound as data, as one table of rows the statement joins
 * to the queue table by id, so the statement's text is the same for any number of rows. The one-row
 * statement's SET and WHERE are built as for one row, each per-row value read from a column of that table
 * ({@link #column}); the dialect wraps them in its form of a joined UPDATE or DELETE.
 */
interface RowsTable {
    /** The alias of the table of rows. */
    String ALIAS = "tq_v";

    /** The name of the {@code index}-th column of the table of rows. */
    static String columnName(int index) {
        return "tq_" + index;
    }

    /** The {@code index}-th value of each row, read from the table of rows as {@code type}. */
    <T> Field<T> column(int index, DataType<T> type);

    /** The UPDATE of {@code b}'s table setting {@code set} on every row {@code where} joins to a row bound. */
    Statement update(StatementWriter w, RoleBinding<?> b, String purpose, Map<Field<?>, Field<?>> set,
            Condition where);

    /** The DELETE of every row of {@code b}'s table {@code where} joins to a row bound. */
    Statement delete(StatementWriter w, RoleBinding<?> b, String purpose, Condition where);

    /**
     * The fewest rows worth one statement over rows bound as data, two or more; fewer go as a batch of the
     * one-row statement. Two, unless the database writes small groups better so (PostgreSQL, {@link PgRows}, and
     * SQLite, {@link SqliteRows}: ten).
     */
    default int fewestRows() {
        return 2;
    }

    /** The JDBC value of {@code rows}: the values of its params of each of {@code each}, in order. */
    Object value(Param rows, List<Binds> each, QueueDialect dialect);
}
