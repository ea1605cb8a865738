package dev.tablequeue.dialect;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementWriter;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * MySQL's and MariaDB's statements over many rows: the rows as one JSON document read by
 * {@code JSON_TABLE(?, '$[*]' COLUMNS(tq_0 .. PATH '$[0]', ..)) AS tq_v}, joined first to the queue table
 * ({@code UPDATE tq_v STRAIGHT_JOIN t ON t.id = tq_v.tq_0 .. SET ..}), so the server finds each row by its
 * primary key ({@code eq_ref}). A multi-table UPDATE, not {@code UPDATE t .. WHERE id IN (SELECT ..)}, which
 * MariaDB 10.11 plans as a scan of the queue table.
 *
 * <p>Text is read as utf8mb4 and compared under {@code utf8mb4_bin}: a JSON_TABLE column takes the
 * connection's collation, which may differ from the table's, and two implicit collations cannot be compared;
 * an explicit one can, and the primary key still finds the row. Bytes travel as hex and are read by
 * {@code UNHEX}.
 */
final class MySqlRows implements RowsTable {
    private static final String TEXT = "longtext character set utf8mb4";

    @Override
    public <T> Field<T> column(int index, DataType<T> type) {
        Field<Object> raw = DSL.field(DSL.name(ALIAS, RowsTable.columnName(index)));
        Class<?> java = type.getType();
        if (java == byte[].class) {
            return DSL.field("unhex({0})", type, raw);
        }
        if (declared(type).equals(TEXT)) {
            return DSL.field("({0} collate utf8mb4_bin)", type, raw);
        }
        return DSL.field(DSL.name(ALIAS, RowsTable.columnName(index)), type);
    }

    /** The type a JSON_TABLE column reads a value of {@code type} as. */
    private static String declared(DataType<?> type) {
        Class<?> java = type.getType();
        if (java == Long.class || java == Integer.class || java == Short.class || java == Byte.class
                || java == BigInteger.class) {
            return "bigint";
        }
        if (java == Double.class || java == Float.class) {
            return "double";
        }
        if (java == LocalDateTime.class || java == OffsetDateTime.class || java == java.sql.Timestamp.class) {
            return "datetime(6)";
        }
        return TEXT;
    }

    @Override
    public Statement update(StatementWriter w, RoleBinding<?> b, String purpose, Map<Field<?>, Field<?>> set,
            Condition where) {
        return w.statement(purpose, w.dsl().update(rows(w).straightJoin(byPrimaryKey(b)).on(where)).set(set));
    }

    @Override
    public Statement delete(StatementWriter w, RoleBinding<?> b, String purpose, Condition where) {
        Table<Record> t = JooqPieces.table(b);
        // DELETE t FROM tq_v STRAIGHT_JOIN t ON ..: jOOQ has no DELETE of one table of a join; its FROM clause is
        // rendered as a SELECT's
        String select = w.render(w.dsl().select(DSL.inline(1)).from(rows(w).straightJoin(byPrimaryKey(b)).on(where)));
        String head = "select 1 from ";
        if (!select.startsWith(head)) {
            throw new IllegalStateException("jOOQ rendered an unexpected SELECT: " + select);
        }
        return w.fromNamed(purpose, "delete " + w.render(t) + " from "
                + select.substring(head.length()));
    }

    /**
     * The queue table read through its primary key only. Without the hint, MariaDB plans a small table (a few rows
     * beside the JSON rows' estimate) as a scan, and a scan in an UPDATE or DELETE locks every row it reads: the
     * statement then waits for rows other claims hold while their handlers run, and with them for its own claim's
     * end, until the server's lock wait timeout. So the id column is the primary key of a MySQL or MariaDB queue
     * table; a table without one refuses at {@code start()}, where this statement does not prepare.
     */
    private static Table<Record> byPrimaryKey(RoleBinding<?> b) {
        return JooqPieces.table(b).forceIndex("PRIMARY");
    }

    /** {@code JSON_TABLE(?, '$[*]' COLUMNS(..)) AS tq_v}: a column per value of {@code w}'s rows. */
    private static Table<Record> rows(StatementWriter w) {
        List<Param> perRow = w.perRow();
        List<DataType<?>> types = w.perRowTypes();
        StringBuilder columns = new StringBuilder();
        for (int i = 0; i < perRow.size(); i++) {
            columns.append(i == 0 ? "" : ", ").append(RowsTable.columnName(i)).append(' ')
                    .append(types.get(i).getType() == byte[].class ? TEXT : declared(types.get(i)))
                    .append(" path '$[").append(i).append("]'");
        }
        Field<String> json = w.text(Param.rows(perRow));
        return DSL.table("json_table({0}, '$[*]' columns(" + columns + "))", json).as(ALIAS);
    }

    @Override
    public Object value(Param rows, List<Binds> each, QueueDialect dialect) {
        return JsonRows.of(rows, each, dialect);
    }
}
