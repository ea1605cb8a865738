package dev.tablequeue.dialect;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementWriter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * PostgreSQL's statements over many rows: one text array per value a row has of its own, zipped into rows by
 * {@code unnest(?, ?, ..) AS tq_v(tq_0, tq_1, ..)}, each column cast to the type its one-row statement binds
 * ({@code UPDATE t SET .. FROM unnest(..) AS tq_v(..) WHERE t.id = CAST(tq_v.tq_0 AS bigint) ..}, and
 * {@code DELETE FROM t USING ..}). Text carries every type the same way: times with their offset (so no
 * session time zone moves them), bytes in PostgreSQL's hex form. pgjdbc prepares the one text on the server
 * after a few uses, whatever the number of rows.
 */
final class PgRows implements RowsTable {
    private static final HexFormat HEX = HexFormat.of();

    @Override
    public <T> Field<T> column(int index, DataType<T> type) {
        return DSL.field(DSL.name(ALIAS, RowsTable.columnName(index)), SQLDataType.VARCHAR).cast(type);
    }

    @Override
    public Statement update(StatementWriter w, RoleBinding<?> b, String purpose, Map<Field<?>, Field<?>> set,
            Condition where) {
        return w.statement(purpose, w.dsl().update(JooqPieces.table(b)).set(set).from(rows(w)).where(where));
    }

    @Override
    public Statement delete(StatementWriter w, RoleBinding<?> b, String purpose, Condition where) {
        return w.statement(purpose, w.dsl().deleteFrom(JooqPieces.table(b)).using(rows(w)).where(where));
    }

    /** {@code unnest(CAST(? AS varchar[]), ..) AS tq_v(tq_0, ..)}: one array per value of {@code w}'s rows. */
    private static Table<Record> rows(StatementWriter w) {
        List<Param> perRow = w.perRow();
        List<Field<?>> arrays = new ArrayList<>(perRow.size());
        String[] names = new String[perRow.size()];
        StringBuilder sql = new StringBuilder("unnest(");
        for (int i = 0; i < perRow.size(); i++) {
            arrays.add(w.bind(Param.rows(List.of(perRow.get(i))), SQLDataType.VARCHAR.getArrayDataType()));
            sql.append(i == 0 ? "" : ", ").append("{").append(i).append("}");
            names[i] = RowsTable.columnName(i);
        }
        return DSL.table(sql.append(')').toString(), arrays.toArray(new Field<?>[0])).as(ALIAS, names);
    }

    /**
     * Ten: PostgreSQL estimates an array it cannot see (a generic plan's parameter) at ten elements, and sees
     * the array of a custom plan. Over fewer rows, the custom plan looks cheaper than the generic one, so the
     * server plans the statement anew at every execution (about as long as it takes to run it); from ten rows
     * on, it keeps the generic plan after its fifth execution. A group of fewer rows goes as one JDBC batch of
     * the one-row statement, whose generic plan is kept (pgjdbc sends the batch in one round trip).
     */
    @Override
    public int fewestRows() {
        return 10;
    }

    @Override
    public Object value(Param rows, List<Binds> each, QueueDialect dialect) {
        Param p = rows.perRow().get(0);
        String[] texts = new String[each.size()];
        for (int i = 0; i < texts.length; i++) {
            texts[i] = text(each.get(i).valueOf(p, dialect));
        }
        return texts;
    }

    /** A value as PostgreSQL reads it from text. */
    static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[] bytes) {
            return "\\x" + HEX.formatHex(bytes);
        }
        // times: toString writes ISO 8601 with the offset, as PostgreSQL reads it, without a formatter's cost
        return value.toString();
    }
}
