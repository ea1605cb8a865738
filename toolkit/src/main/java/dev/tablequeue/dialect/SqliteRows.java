package dev.tablequeue.dialect;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectField;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * SQLite's statements over many rows: the rows as one JSON document read by
 * {@code (SELECT json_extract(value, '$[0]') AS tq_0, .. FROM json_each(?)) AS tq_v}; an UPDATE joins it with
 * {@code UPDATE t SET .. FROM tq_v WHERE t.id = tq_v.tq_0 ..}, a DELETE takes the ids it joins
 * ({@code DELETE FROM t WHERE id IN (SELECT id FROM tq_v JOIN t ON ..)}), each row found by its key. Times
 * are text already (SQLite keeps them so); bytes travel as hex and are read by {@code unhex}.
 */
final class SqliteRows implements RowsTable {

    @Override
    public <T> Field<T> column(int index, DataType<T> type) {
        Field<Object> raw = DSL.field(DSL.name(ALIAS, RowsTable.columnName(index)));
        return type.getType() == byte[].class ? DSL.field("unhex({0})", type, raw)
                : DSL.field(DSL.name(ALIAS, RowsTable.columnName(index)), type);
    }

    @Override
    public Statement update(StatementWriter w, RoleBinding<?> b, String purpose, Map<Field<?>, Field<?>> set,
            Condition where) {
        return w.statement(purpose, w.dsl().update(JooqPieces.table(b)).set(set).from(rows(w)).where(where));
    }

    @Override
    public Statement delete(StatementWriter w, RoleBinding<?> b, String purpose, Condition where) {
        Table<Record> t = JooqPieces.table(b);
        Field<Object> id = JooqPieces.typed(b.id());
        return w.statement(purpose, w.dsl().deleteFrom(t)
                .where(id.in(w.dsl().select(id).from(rows(w)).join(t).on(where))));
    }

    /** The rows of {@code w}'s values, a column each, read from one JSON document. */
    private static Table<Record> rows(StatementWriter w) {
        List<Param> perRow = w.perRow();
        List<SelectField<?>> columns = new ArrayList<>(perRow.size());
        for (int i = 0; i < perRow.size(); i++) {
            columns.add(DSL.field("json_extract(value, '$[" + i + "]')").as(RowsTable.columnName(i)));
        }
        Field<String> json = w.text(Param.rows(perRow));
        return w.dsl().select(columns).from(DSL.table("json_each({0})", json)).asTable(ALIAS);
    }

    /**
     * Ten, as on PostgreSQL, for another reason: SQLite runs a kept one-row statement in process, so a batch of
     * it costs less than writing a small group's rows as JSON and reading them back with {@code json_each}
     * (the harness's SQLite lease case at 8 workers: 3,850 B/msg against 4,090 with groups from two rows on).
     */
    @Override
    public int fewestRows() {
        return 10;
    }

    @Override
    public Object value(Param rows, List<Binds> each, QueueDialect dialect) {
        return JsonRows.of(rows, each, dialect);
    }
}
