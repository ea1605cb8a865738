package dev.tablequeue.internal;

import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

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

    private interface Use<V> {
        V on(PreparedStatement ps) throws SQLException;
    }

    /**
     * Runs {@code use} on {@code sql} prepared on {@code c}: a statement kept on the connection where the
     * dialect asks for it ({@link QueueDialect#keepsPreparedStatements()}) and the connection comes straight
     * from a HikariCP pool ({@link KeptStatements}), else one closed after the use.
     */
    private static <V> V run(Connection c, String sql, QueueDialect dialect, Use<V> use) throws SQLException {
        if (!dialect.keepsPreparedStatements() || !KeptStatements.keepsOn(c)) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                return use.on(ps);
            }
        }
        PreparedStatement ps = KeptStatements.take(c, sql);
        try {
            return use.on(ps);
        } catch (SQLException | RuntimeException | Error e) {
            KeptStatements.drop(c, sql, ps);
            throw e;
        }
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
