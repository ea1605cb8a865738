package dev.tablequeue.dialect;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementWriter;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
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
        if (value instanceof OffsetDateTime time) {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(time);
        }
        if (value instanceof LocalDateTime time) {
            return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(time);
        }
        return value.toString();
    }
}
