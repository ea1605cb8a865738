package dev.tablequeue.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * How the runtime prepares a dialect's statements: anew at each use ({@link #EACH_USE}, for drivers that keep
 * what they parse themselves: pgjdbc keeps the server's prepared statements per connection, and the MySQL and
 * MariaDB drivers cost little to prepare with), or kept on each driver connection and run again, for a driver
 * that compiles each statement it prepares and keeps none (SQLite's: {@link #keptPerConnection()}).
 *
 * <p>The runtime takes a statement, runs it once, and gives it back, on the thread that borrowed {@code c}:
 * a connection is lent to one thread at a time, so a kept statement is never run by two at once.
 */
public interface StatementCache {
    /** Prepares each statement on the connection at its use and closes it after. */
    StatementCache EACH_USE = new StatementCache() {
        @Override
        public PreparedStatement take(Connection c, String sql, String[] keys) throws SQLException {
            return keys == null ? c.prepareStatement(sql) : c.prepareStatement(sql, keys);
        }

        @Override
        public void give(Connection c, String sql, String[] keys, PreparedStatement ps, boolean failed)
                throws SQLException {
            ps.close();
        }
    };

    /**
     * A new cache that keeps each statement on the driver's connection beneath {@code c}
     * ({@code c.unwrap(Connection.class)}: a pool's proxy hands over the connection it lends), the 64 most
     * recently used per connection. A statement kept so is not prepared through a wrapper the data source puts
     * around its connections: a wrapper that must see every statement should not hand over its target.
     */
    static StatementCache keptPerConnection() {
        return new KeptStatements(64);
    }

    /**
     * {@code sql} prepared on {@code c} for one use, to return the values the database generates for the
     * columns {@code keys} (null: none).
     */
    PreparedStatement take(Connection c, String sql, String[] keys) throws SQLException;

    /**
     * Gives back a statement {@link #take} returned, once its use has ended: closed, unless the cache keeps it;
     * closed and forgotten where its use {@code failed}, so the next use prepares it afresh.
     */
    void give(Connection c, String sql, String[] keys, PreparedStatement ps, boolean failed) throws SQLException;
}
