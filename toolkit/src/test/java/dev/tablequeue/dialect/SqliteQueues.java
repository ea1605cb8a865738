package dev.tablequeue.dialect;

import dev.tablequeue.binding.RoleBinding;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.impl.SQLDataType;

/**
 * A SQLite file holding queue tables shaped like {@link QueueTable}, with the bindings and the row helpers
 * the SQLite dialect's tests share. Times are text in {@link SqliteTime}'s layout.
 */
final class SqliteQueues implements AutoCloseable {
    /** How a SQLite queue table's time columns look to jOOQ: text, read as {@code OffsetDateTime}. */
    static final DataType<OffsetDateTime> TIME = SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());

    static final SqliteDialect DIALECT = new SqliteDialect();

    final SqliteFile db;
    final StatementRunner run = new StatementRunner(DIALECT);

    SqliteQueues(String name) {
        this.db = new SqliteFile(name);
    }

    /** The DDL of a queue table with a column for every role, times as text defaulting to the database's now. */
    static String ddl(String table) {
        return "CREATE TABLE \"" + table + "\" ("
                + "\"id\" INTEGER PRIMARY KEY, "
                + "\"grp\" TEXT, "
                + "\"priority\" INTEGER NOT NULL DEFAULT 0, "
                + "\"partition_key\" TEXT, "
                + "\"retry_after\" TEXT NOT NULL DEFAULT (" + SqliteTime.NOW_SQL + "), "
                + "\"attempt\" INTEGER NOT NULL DEFAULT 1, "
                + "\"processed_at\" TEXT, "
                + "\"locked_until\" TEXT, "
                + "\"headers\" TEXT, "
                + "\"payload\" BLOB, "
                + "\"note\" TEXT, "
                + "\"last_error\" TEXT)";
    }

    /** Creates table {@code name} in the file and returns its jOOQ description. */
    QueueTable<OffsetDateTime> create(String name) {
        db.execute(ddl(name));
        return new QueueTable<>(name, TIME);
    }

    Connection connect() throws SQLException {
        return db.connect();
    }

    /** Every role a lease table can play, payload mode with a headers column. */
    static RoleBinding<Record> lease(QueueTable<OffsetDateTime> t) {
        return RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .priority(t.PRIORITY)
                .partitionKey(t.PARTITION_KEY)
                .retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT)
                .lease(t.LOCKED_UNTIL)
                .headers(t.HEADERS)
                .payload(t.PAYLOAD)
                .build();
    }

    /** A lease table whose groups keep their order. */
    static RoleBinding<Record> fifo(QueueTable<OffsetDateTime> t) {
        return RoleBinding.of(t, t.ID)
                .fifoGroup(t.GRP)
                .priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT)
                .lease(t.LOCKED_UNTIL)
                .payload(t.PAYLOAD)
                .build();
    }

    /** An advisory table keyed by {@code keyTemplate}, on the host's clock. */
    static RoleBinding<Record> advisory(QueueTable<OffsetDateTime> t, String keyTemplate) {
        return RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .priority(t.PRIORITY)
                .partitionKey(t.PARTITION_KEY)
                .retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT)
                .advisory(keyTemplate)
                .payload(t.PAYLOAD)
                .build();
    }

    /** Inserts a row of {@code grp} due at {@code retryAfter}; returns its id. */
    long insert(Connection c, QueueTable<?> t, String grp, int priority, Instant retryAfter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO \"" + t.getName()
                + "\" (grp, priority, retry_after, payload) VALUES (?, ?, ?, ?) RETURNING id")) {
            ps.setString(1, grp);
            ps.setInt(2, priority);
            ps.setString(3, SqliteTime.format(retryAfter));
            ps.setBytes(4, ("payload of " + grp).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Sets one column of a row, as another writer would. */
    void set(Connection c, QueueTable<?> t, long id, String column, Object value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE \"" + t.getName() + "\" SET \"" + column
                + "\" = ? WHERE id = ?")) {
            ps.setObject(1, value);
            ps.setLong(2, id);
            ps.executeUpdate();
        }
    }

    /** A row as it is in the table, or null where it is gone. */
    Map<String, Object> row(Connection c, QueueTable<?> t, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM \"" + t.getName() + "\" WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                List<Map<String, Object>> rows = StatementRunner.read(rs);
                return rows.isEmpty() ? null : rows.get(0);
            }
        }
    }

    /** Every row of a table, by id. */
    List<Map<String, Object>> rows(Connection c, QueueTable<?> t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM \"" + t.getName() + "\" ORDER BY id");
                ResultSet rs = ps.executeQuery()) {
            return StatementRunner.read(rs);
        }
    }

    @Override
    public void close() {
        db.close();
    }
}
