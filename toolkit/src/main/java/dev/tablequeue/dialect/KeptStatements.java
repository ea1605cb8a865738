package dev.tablequeue.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link StatementCache} that keeps prepared statements per driver connection, for a driver that compiles a
 * statement each time it is prepared and keeps no cache of its own (SQLite's: the compile took a quarter of a
 * claim thread's time). A statement is prepared on the connection beneath the one lent
 * ({@code unwrap(Connection.class)}), so a pool does not close it when the connection goes back, and is run
 * again by whoever borrows that connection next. The statements of a connection go with it: its driver closes
 * them when it closes, and the entries of closed connections are dropped whenever a connection not seen before
 * comes (a pool opens one in place of one it closed), so the cache holds no more connections than the pools
 * have had open at once.
 */
final class KeptStatements implements StatementCache {
    /** The most statements kept per connection; the least recently used one is closed beyond it. */
    private final int perConnection;

    /**
     * Each driver connection's statements. Not a weak map: a statement refers to its connection, so an entry
     * would never be let go; closed connections are dropped instead ({@link #forgetClosed}).
     */
    private final Map<Connection, Map<String, PreparedStatement>> kept = new IdentityHashMap<>();

    KeptStatements(int perConnection) {
        this.perConnection = perConnection;
    }

    @Override
    public PreparedStatement take(Connection c, String sql, String[] keys) throws SQLException {
        Connection driver = c.unwrap(Connection.class);
        Map<String, PreparedStatement> statements;
        synchronized (kept) {
            statements = kept.get(driver);
            if (statements == null) {
                forgetClosed();
                statements = new Lru(perConnection);
                kept.put(driver, statements);
            }
        }
        String key = key(sql, keys);
        PreparedStatement ps = statements.get(key);
        if (ps == null || ps.isClosed()) {
            ps = keys == null ? driver.prepareStatement(sql) : driver.prepareStatement(sql, keys);
            statements.put(key, ps);
        }
        return ps;
    }

    @Override
    public void give(Connection c, String sql, String[] keys, PreparedStatement ps, boolean failed) {
        if (!failed) {
            return;
        }
        try {
            Map<String, PreparedStatement> statements;
            synchronized (kept) {
                statements = kept.get(c.unwrap(Connection.class));
            }
            if (statements != null) {
                statements.remove(key(sql, keys), ps);
            }
        } catch (SQLException ignored) {
            // the connection is gone, and its statements with it
        }
        try {
            ps.close();
        } catch (SQLException ignored) {
            // closing what failed; the failure itself is what the caller reports
        }
    }

    /** Whether statements are kept for the driver's connection {@code driver} (for tests). */
    boolean keepsFor(Connection driver) {
        synchronized (kept) {
            return kept.containsKey(driver);
        }
    }

    /** The key a statement is kept under: its text, and the generated keys it returns. */
    private static String key(String sql, String[] keys) {
        return keys == null ? sql : sql + "\u0000" + String.join(",", keys);
    }

    /** Drops the statements of the connections that have closed; under {@link #kept}'s monitor. */
    private void forgetClosed() {
        kept.keySet().removeIf(connection -> {
            try {
                return connection.isClosed();
            } catch (SQLException e) {
                return true;
            }
        });
    }

    /** One connection's statements, the least recently used closed beyond the cache's bound. */
    private static final class Lru extends LinkedHashMap<String, PreparedStatement> {
        private final int bound;

        Lru(int bound) {
            super(16, 0.75f, true);
            this.bound = bound;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= bound) {
                return false;
            }
            try {
                eldest.getValue().close();
            } catch (SQLException ignored) {
                // a statement that does not close is released with its connection
            }
            return true;
        }
    }
}
