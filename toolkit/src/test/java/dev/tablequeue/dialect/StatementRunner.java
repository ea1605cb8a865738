package dev.tablequeue.dialect;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementBinder;
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
import java.util.Optional;

/**
 * Runs a dialect's built statements on a JDBC connection as the runtime does: prepared, bound in the
 * statement's order, and each claim as its form takes it (transaction, FIFO guard, claim, stamp).
 */
final class StatementRunner {
    private final QueueDialect dialect;

    StatementRunner(QueueDialect dialect) {
        this.dialect = dialect;
    }

    QueueDialect dialect() {
        return dialect;
    }

    List<Map<String, Object>> query(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            try (ResultSet rs = ps.executeQuery()) {
                return read(rs);
            }
        }
    }

    /** Runs a statement that returns rows through {@code execute()}, as an UPDATE .. RETURNING needs on SQLite. */
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

    int update(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            return ps.executeUpdate();
        }
    }

    /** A statement that answers one boolean-like value. */
    boolean answer(Connection c, Statement statement, Binds binds) throws SQLException {
        List<Map<String, Object>> rows = query(c, statement, binds);
        if (rows.size() != 1) {
            throw new AssertionError(statement.purpose() + " answered " + rows.size() + " rows");
        }
        Object value = rows.get(0).values().iterator().next();
        return value instanceof Boolean bool ? bool : value != null && ((Number) value).longValue() == 1L;
    }

    void run(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.execute();
        }
    }

    /** Auto-commit off and the binding's opening. */
    void begin(Connection c, RoleBinding<?> b) throws SQLException {
        TransactionOpening opening = dialect.transactionOpening(b);
        c.setAutoCommit(false);
        Optional<String> sql = opening.sql();
        if (sql.isPresent()) {
            run(c, sql.get());
        }
    }

    void commit(Connection c) throws SQLException {
        c.commit();
        c.setAutoCommit(true);
    }

    void rollback(Connection c) throws SQLException {
        c.rollback();
        c.setAutoCommit(true);
    }

    /** The FIFO guard where the binding has one: false where the group has a row in work. */
    boolean guard(Connection c, RoleBinding<?> b, Binds binds) throws SQLException {
        Optional<FifoGuard> guard = dialect.fifoGuard(b);
        if (guard.isEmpty()) {
            return true;
        }
        if (!guard.get().answers()) {
            query(c, guard.get().statement(), binds);
            return true;
        }
        return answer(c, guard.get().statement(), binds);
    }

    /** The guard and the claim of the binding's form, in the transaction {@code c} has open. */
    List<Map<String, Object>> claimInTransaction(Connection c, RoleBinding<?> b, ClaimShape shape, Binds binds)
            throws SQLException {
        if (!guard(c, b, binds)) {
            return List.of();
        }
        if (b.form() == Form.ROW_LOCK) {
            return query(c, dialect.claimRowLock(b, shape), binds);
        }
        List<Map<String, Object>> rows = query(c, dialect.claimLease(b, shape), binds);
        if (!dialect.claimLeaseStamps() && !rows.isEmpty()) {
            int stamped = update(c, dialect.leaseStamp(b, rows.size()), binds.ids(ids(rows)));
            if (stamped != rows.size()) {
                throw new AssertionError("the stamp wrote " + stamped + " of " + rows.size() + " rows");
            }
        }
        return rows;
    }

    /** A whole lease claim: its transaction, the guard, the claim, the stamp, the commit. */
    List<Map<String, Object>> leaseClaim(Connection c, RoleBinding<?> b, ClaimShape shape, Binds binds)
            throws SQLException {
        begin(c, b);
        try {
            List<Map<String, Object>> rows = claimInTransaction(c, b, shape, binds);
            commit(c);
            return rows;
        } catch (SQLException | RuntimeException e) {
            rollback(c);
            throw e;
        }
    }

    static List<Long> ids(List<Map<String, Object>> rows) {
        List<Long> ids = new ArrayList<>(rows.size());
        for (Map<String, Object> row : rows) {
            ids.add(((Number) row.get("id")).longValue());
        }
        return ids;
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
