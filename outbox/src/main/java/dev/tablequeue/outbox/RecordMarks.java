package dev.tablequeue.outbox;

import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.jooq.Field;
import org.jooq.conf.ParamType;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * The marks tracked deliveries write in their settlement's transaction ({@link DeliveryTracking}): the record's
 * mark (the registry's own, which changes only a record not processed yet) over many ids at once, and, where
 * the mark was written at the claim and the delivery is retried, its undoing. Each runs as one JDBC batch (one
 * round trip on PostgreSQL and MariaDB), never committing, on the statement the connection keeps where the
 * dialect keeps them (SQLite's driver compiles a statement each time it is prepared, and these run on the
 * thread that writes every outcome).
 */
final class RecordMarks {
    private final QueueDialect dialect;
    private final Statement mark;
    /** Sets processed_at back to NULL; null where the binding has no processed_at (its mark deletes). */
    private final Statement unmark;

    RecordMarks(OutboxBinding<?> binding, QueueDialect dialect, String mark) {
        this.dialect = dialect;
        this.mark = byId("mark", mark);
        var render = DSL.using(dialect.sqlDialect(), new Settings().withParamType(ParamType.INDEXED)
                .withRenderSchema(true));
        Field<Object> id = typed(binding.id());
        this.unmark = binding.processedAt().map(p -> byId("unmark", render.render(render.update(binding.table())
                .set(Map.<Field<?>, Field<?>>of(p, DSL.val(null, p))).where(id.eq(DSL.val(null, id))))))
                .orElse(null);
    }

    /** {@code sql}, whose one parameter is a record's id. */
    static Statement byId(String purpose, String sql) {
        return new Statement(purpose, sql, List.of(Param.of(Param.Kind.ID)));
    }

    /** Whether a record can be marked at the claim and its mark undone: it has processed_at. */
    boolean undoable() {
        return unmark != null;
    }

    /**
     * Marks the records {@code ids} (in this order: callers sort them, so two claims lock records in one order)
     * and says of each whether this mark changed it: false where it was processed already (or is gone), or
     * where an earlier id of the same list was the same record.
     */
    boolean[] mark(Connection c, List<Object> ids) throws SQLException {
        int[] counts = run(c, mark, ids);
        boolean[] changed = new boolean[ids.size()];
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < 0) {
                throw new SQLException("the driver reported no row count for the mark of record " + ids.get(i)
                        + " (a JDBC batch answered SUCCESS_NO_INFO), so the outbox cannot tell a processed record"
                        + " from one it marked [SQL: " + mark.sql() + "]");
            }
            changed[i] = counts[i] > 0;
        }
        return changed;
    }

    /** Undoes the marks of {@code ids} written at their claim, in the same transaction. */
    void unmark(Connection c, List<Object> ids) throws SQLException {
        run(c, unmark, ids);
    }

    /** Marks {@code ids} as the settlement of their deliveries does, where nothing marked them at the claim. */
    void markSettled(Connection c, List<Object> ids) throws SQLException {
        run(c, mark, ids);
    }

    private int[] run(Connection c, Statement statement, List<Object> ids) throws SQLException {
        if (ids.isEmpty()) {
            return new int[0];
        }
        int[] counts = Jdbc.updateEach(c, statement, ids.stream().map(id -> new Binds().id(id)).toList(), dialect);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == java.sql.Statement.EXECUTE_FAILED) {
                throw new SQLException("the " + statement.purpose() + " of record " + ids.get(i) + " failed [SQL: "
                        + statement.sql() + "]");
            }
        }
        return counts;
    }

    @SuppressWarnings("unchecked")
    private static <T> Field<T> typed(Field<?> f) {
        return (Field<T>) f;
    }
}
