package dev.tablequeue.bench;

import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.TransactionOpening;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementBinder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A raw worker's connection, as a hand-written loop keeps one: a cached {@link PreparedStatement} per statement
 * (bound as the runtime binds it), and transactions opened and ended as the dialect says.
 */
final class RawConnection implements AutoCloseable {
    private final Connection c;
    private final QueueDialect dialect;
    private final TransactionOpening opening;
    private final Map<Statement, PreparedStatement> prepared = new IdentityHashMap<>();
    private final java.sql.Statement plain;

    RawConnection(Connection c, QueueDialect dialect, TransactionOpening opening) throws SQLException {
        this.c = c;
        this.dialect = dialect;
        this.opening = opening;
        this.plain = c.createStatement();
    }

    Connection connection() {
        return c;
    }

    /** Whether the dialect opens its transactions with a statement of its own (SQLite's {@code BEGIN ..}). */
    boolean explicit() {
        return opening.explicit();
    }

    /** {@code statement}'s cached prepared statement, bound with {@code binds}. */
    PreparedStatement bound(Statement statement, Binds binds) throws SQLException {
        PreparedStatement ps = prepared.get(statement);
        if (ps == null) {
            ps = c.prepareStatement(statement.sql());
            prepared.put(statement, ps);
        }
        StatementBinder.bind(ps, statement, binds, dialect);
        return ps;
    }

    /** Opens a transaction as the dialect says: its opening statement, where it has one. */
    void open() throws SQLException {
        if (opening.sql().isPresent()) {
            plain.execute(opening.sql().get());
        }
    }

    /** Commits or rolls back the transaction {@link #open} began. */
    void end(boolean commit) throws SQLException {
        if (opening.explicit()) {
            plain.execute(commit ? "COMMIT" : "ROLLBACK");
        } else if (commit) {
            c.commit();
        } else {
            c.rollback();
        }
    }

    /** Closes the statements and leaves the connection in auto-commit, as the pool gave it. */
    @Override
    public void close() throws SQLException {
        for (PreparedStatement ps : prepared.values()) {
            ps.close();
        }
        plain.close();
        if (!c.getAutoCommit()) {
            c.rollback();
            c.setAutoCommit(true);
        }
    }
}
