package dev.tablequeue.dialect;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jooq.Field;

/**
 * The inserts of the built-in dialects ({@link QueueInserts}): one JDBC batch of the insert, its ids read back
 * from the driver's generated keys; or, where the dialect gives a {@code RETURNING} form (SQLite, whose driver
 * reports no keys for a batch), that form once per row.
 */
final class StatementInserts implements QueueInserts {
    private final QueueDialect dialect;
    private final RoleBinding<?> binding;
    private final Statement insert;
    /** The insert returning the generated id, run once per row; null where the batch's generated keys are read. */
    private final Statement returningId;
    /** Where the insert writes the id column itself (the binding's insert values hold it); -1 where not. */
    private final int givenId;

    StatementInserts(QueueDialect dialect, RoleBinding<?> binding, Statement insert, Statement returningId) {
        this.dialect = dialect;
        this.binding = binding;
        this.insert = insert;
        this.returningId = returningId;
        this.givenId = indexOf(binding.insertColumns(), binding.id());
    }

    @Override
    public Statement insert() {
        return insert;
    }

    @Override
    public List<Statement> statements() {
        return returningId == null ? List.of(insert) : List.of(insert, returningId);
    }

    @Override
    public List<Object> write(Connection c, List<List<Object>> values) throws SQLException {
        List<Binds> rows = new ArrayList<>(values.size());
        for (List<Object> row : values) {
            rows.add(new Binds().values(row));
        }
        Field<?> id = binding.id();
        List<Object> ids;
        if (givenId >= 0) {
            Jdbc.updateEach(c, insert, rows, dialect);
            ids = new ArrayList<>(values.size());
            for (List<Object> row : values) {
                ids.add(row.get(givenId));
            }
        } else if (binding.isGenerated(id)) {
            ids = returningId != null ? Jdbc.queryEach(c, returningId, rows, dialect)
                    : Jdbc.insertEach(c, insert, rows, id.getName(), dialect);
        } else {
            Jdbc.updateEach(c, insert, rows, dialect);
            ids = new ArrayList<>(Collections.nCopies(values.size(), null));
        }
        ids.replaceAll(v -> v == null ? null : id.getDataType().convert(v));
        return ids;
    }

    private static int indexOf(List<Field<?>> columns, Field<?> column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).getName().equals(column.getName())) {
                return i;
            }
        }
        return -1;
    }
}
