package dev.tablequeue.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Runs built statements on a JDBC connection, binding them as the runtime does (through {@link StatementBinder}). */
final class StatementRunner {
    private final QueueDialect dialect;

    StatementRunner(QueueDialect dialect) {
        this.dialect = dialect;
    }

    /** Runs a statement that returns rows; each row maps lower-case column labels to values. */
    List<Map<String, Object>> rows(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            if (!ps.execute()) {
                throw new AssertionError(statement + " returned no result set");
            }
            try (ResultSet rs = ps.getResultSet()) {
                return read(rs);
            }
        }
    }

    /** Runs a statement that returns an update count. */
    int update(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            if (ps.execute()) {
                throw new AssertionError(statement + " returned a result set");
            }
            return ps.getUpdateCount();
        }
    }

    /** Runs a statement of either kind and consumes what it returns. */
    void run(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            if (ps.execute()) {
                try (ResultSet rs = ps.getResultSet()) {
                    read(rs);
                }
            }
        }
    }

    static List<Map<String, Object>> read(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<Map<String, Object>> rows = new ArrayList<>();
        while (rs.next()) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                row.put(meta.getColumnLabel(i).toLowerCase(Locale.ROOT), rs.getObject(i));
            }
            rows.add(row);
        }
        return rows;
    }
}
