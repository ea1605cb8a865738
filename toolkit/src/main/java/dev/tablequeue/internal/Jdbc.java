package dev.tablequeue.internal;

import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.StatementCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Runs built statements on a connection. */
public final class Jdbc {
    private Jdbc() {}

    public interface Reader<V> {
        V read(ResultSet rs) throws SQLException;
    }

    /** Runs a statement that returns rows and reads them. */
    public static <V> V query(Connection c, Statement statement, Binds binds, QueueDialect dialect, Reader<V> reader)
            throws SQLException {
        return run(c, statement.sql(), dialect, ps -> {
            StatementBinder.bind(ps, statement, binds, dialect);
            if (!ps.execute()) {
                throw new SQLException("the " + statement.purpose() + " statement returned no result set");
            }
            try (ResultSet rs = ps.getResultSet()) {
                return reader.read(rs);
            }
        });
    }

    /** Runs a statement that changes rows and returns how many. */
    public static int update(Connection c, Statement statement, Binds binds, QueueDialect dialect) throws SQLException {
        return run(c, statement.sql(), dialect, ps -> {
            StatementBinder.bind(ps, statement, binds, dialect);
            return ps.executeUpdate();
        });
    }

    /** Runs a statement that changes rows once per {@code binds}, as one JDBC batch; rows changed by each. */
    public static int[] updateEach(Connection c, Statement statement, java.util.List<Binds> binds, QueueDialect dialect)
            throws SQLException {
        if (binds.size() == 1) {
            return new int[] {update(c, statement, binds.get(0), dialect)};
        }
        return run(c, statement.sql(), dialect, ps -> {
            for (Binds b : binds) {
                StatementBinder.bind(ps, statement, b, dialect);
                ps.addBatch();
            }
            return ps.executeBatch();
        });
    }

    /**
     * Runs an insert once per {@code binds}, as one JDBC batch (one execution for one row), and returns the
     * value the database generated for column {@code key} in each row, in order: the driver's generated keys
     * (pgjdbc adds a {@code RETURNING}, MariaDB's and MySQL's drivers read the insert ids).
     *
     * @throws SQLException where the driver reports fewer keys than rows
     */
    public static List<Object> insertEach(Connection c, Statement insert, List<Binds> binds, String key,
            QueueDialect dialect) throws SQLException {
        String[] keys = {key};
        return run(c, insert.sql(), keys, dialect, ps -> {
            if (binds.size() == 1) {
                StatementBinder.bind(ps, insert, binds.get(0), dialect);
                ps.executeUpdate();
            } else {
                for (Binds b : binds) {
                    StatementBinder.bind(ps, insert, b, dialect);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            List<Object> ids = new ArrayList<>(binds.size());
            try (ResultSet rs = ps.getGeneratedKeys()) {
                while (rs.next()) {
                    ids.add(rs.getObject(1));
                }
            }
            if (ids.size() != binds.size()) {
                throw new SQLException("the " + insert.purpose() + " wrote " + binds.size() + " row(s), and the driver"
                        + " reported " + ids.size() + " generated value(s) of \"" + key + "\" [SQL: " + insert.sql()
                        + "]");
            }
            return ids;
        });
    }

    /**
     * Runs an insert once and returns the value the database generated for column {@code key}, or null where the
     * driver reports none (MariaDB's, for an {@code ON DUPLICATE KEY UPDATE} that wrote no row).
     */
    public static Object insertKey(Connection c, Statement insert, Binds binds, String key, QueueDialect dialect)
            throws SQLException {
        return run(c, insert.sql(), new String[] {key}, dialect, ps -> {
            StatementBinder.bind(ps, insert, binds, dialect);
            ps.executeUpdate();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                return rs.next() ? rs.getObject(1) : null;
            }
        });
    }

    /**
     * Runs a statement that returns one value per execution (an insert's {@code RETURNING id}) once per
     * {@code binds}, on one prepared statement, and returns the first column of each.
     */
    public static List<Object> queryEach(Connection c, Statement statement, List<Binds> binds, QueueDialect dialect)
            throws SQLException {
        return run(c, statement.sql(), null, dialect, ps -> {
            List<Object> values = new ArrayList<>(binds.size());
            for (Binds b : binds) {
                StatementBinder.bind(ps, statement, b, dialect);
                if (!ps.execute()) {
                    throw new SQLException("the " + statement.purpose() + " statement returned no result set");
                }
                try (ResultSet rs = ps.getResultSet()) {
                    if (!rs.next()) {
                        throw new SQLException("the " + statement.purpose() + " statement returned no row [SQL: "
                                + statement.sql() + "]");
                    }
                    values.add(rs.getObject(1));
                }
            }
            return values;
        });
    }

    private interface Use<V> {
        V on(PreparedStatement ps) throws SQLException;
    }

    /** Runs {@code use} on {@code sql} prepared on {@code c} by the dialect's {@link StatementCache}. */
    private static <V> V run(Connection c, String sql, QueueDialect dialect, Use<V> use) throws SQLException {
        return run(c, sql, null, dialect, use);
    }

    /** As {@link #run(Connection, String, QueueDialect, Use)}, prepared to return the generated {@code keys}. */
    private static <V> V run(Connection c, String sql, String[] keys, QueueDialect dialect, Use<V> use)
            throws SQLException {
        StatementCache cache = dialect.statementCache();
        PreparedStatement ps = cache.take(c, sql, keys);
        V result;
        try {
            result = use.on(ps);
        } catch (SQLException | RuntimeException | Error e) {
            try {
                cache.give(c, sql, keys, ps, true);
            } catch (SQLException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        cache.give(c, sql, keys, ps, false);
        return result;
    }

    /** The first column of the first row, read as a boolean (true, or the number 1). */
    public static boolean firstBoolean(ResultSet rs) throws SQLException {
        if (!rs.next()) {
            return false;
        }
        Object value = rs.getObject(1);
        if (value instanceof Boolean b) {
            return b;
        }
        return value instanceof Number n && n.longValue() == 1L;
    }

    /** Runs plain SQL without parameters. */
    public static void execute(Connection c, String sql) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
