package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** What the queue admin's statements share: the batches of ids they take, a count's reading, and their failure. */
final class AdminRows {
    /** The most ids one redrive or purge statement takes. */
    static final int BATCH = 500;

    private AdminRows() {}

    /** The failure of an admin statement, naming the queue, the table, the statement and its SQL. */
    static TableQueueException failed(QueueDialect dialect, Statement statement, RoleBinding<?> binding,
            InboxQueue<?> queue, SQLException e) {
        return new TableQueueException((queue == null ? "" : "queue " + queue + ": ") + "the " + statement.purpose()
                + " statement of table \"" + binding.tableName() + "\" failed on " + dialect.name() + ": "
                + e.getMessage() + " [SQL: " + statement.sql() + "]", e);
    }

    static long firstLong(ResultSet rs) throws SQLException {
        rs.next();
        return rs.getLong(1);
    }

    /** Every id of {@code rs}, the first column of each row. */
    static List<Object> ids(ResultSet rs) throws SQLException {
        List<Object> ids = new ArrayList<>();
        while (rs.next()) {
            ids.add(rs.getObject(1));
        }
        return ids;
    }

    /** {@code ids} (one to {@code size}) filled up to {@code size} with its last id, for a statement's fixed list. */
    static List<Object> padded(List<Object> ids, int size) {
        List<Object> all = new ArrayList<>(size);
        all.addAll(ids);
        while (all.size() < size) {
            all.add(ids.get(ids.size() - 1));
        }
        return all;
    }

    /** {@code ids} in lists of at most {@link #BATCH}. */
    static List<List<Object>> batches(List<Object> ids) {
        List<List<Object>> batches = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += BATCH) {
            batches.add(ids.subList(i, Math.min(ids.size(), i + BATCH)));
        }
        return batches;
    }
}
