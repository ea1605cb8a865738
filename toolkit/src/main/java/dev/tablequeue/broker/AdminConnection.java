package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import org.jooq.ConnectionProvider;

/**
 * How the queue admin runs its statements: a connection borrowed for one piece of work and given back, and
 * each statement's failure wrapped with the queue, the table, the statement and its SQL.
 */
final class AdminConnection {
    /** Work on one borrowed connection. */
    interface Work<V> {
        V run(Connection c) throws SQLException;
    }

    private final ConnectionProvider connections;
    final QueueDialect dialect;

    AdminConnection(ConnectionProvider connections, QueueDialect dialect) {
        this.connections = connections;
        this.dialect = dialect;
    }

    <V> V with(Work<V> work) {
        Connection c = acquire(connections);
        try {
            return work.run(c);
        } catch (SQLException e) {
            throw new TableQueueException("the queue admin's connection failed: " + e.getMessage(), e);
        } finally {
            connections.release(c);
        }
    }

    static Connection acquire(ConnectionProvider connections) {
        try {
            return connections.acquire();
        } catch (RuntimeException e) {
            throw new TableQueueException("the queue admin cannot connect to the database: " + e.getMessage(), e);
        }
    }

    <V> V query(Connection c, Statement statement, Binds binds, RoleBinding<?> binding, InboxQueue<?> queue,
            Jdbc.Reader<V> reader) {
        try {
            return Jdbc.query(c, statement, binds, dialect, reader);
        } catch (SQLException e) {
            throw AdminRows.failed(dialect, statement, binding, queue, e);
        }
    }

    int update(Connection c, Statement statement, Binds binds, InboxQueue<?> queue) {
        try {
            return Jdbc.update(c, statement, binds, dialect);
        } catch (SQLException e) {
            throw AdminRows.failed(dialect, statement, queue.binding(), queue, e);
        }
    }
}
