package dev.tablequeue.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prepared statements kept per physical connection, for a driver that compiles a statement each time it is
 * prepared and keeps no cache of its own (SQLite's: the compile took a quarter of a claim thread's time), or
 * whose statements cost objects of their own each time (pgjdbc's: half of what a delivery allocated). A
 * statement is prepared on the connection the pool wraps, so the pool does not close it when the connection
 * goes back, and is used again by whoever borrows that connection next (a pool lends a connection to one
 * thread at a time). The statements of a connection go with it: its driver closes them when it closes, and
 * the entries of closed connections are dropped whenever a connection not seen before comes (a pool opens one
 * in place of one it closed), so the map holds no more connections than the pools have had open at once.
 *
 * <p>Only a connection straight from a HikariCP pool is unwrapped so ({@link #keepsOn}): its proxy hands over
 * the driver's connection. Any other data source may be a wrapper of the service's own (a tracing or
 * instrumenting one) that must see every statement, so its connections prepare each statement as before.
 */
final class KeptStatements {
    /** The most statements kept per connection; the least recently used one is closed beyond it. */
    private static final int PER_CONNECTION = 64;

    /**
     * Each driver connection's statements. Not a weak map: a statement refers to its connection, so an entry
     * would never be let go; closed connections are dropped instead ({@link #forgetClosed}).
     */
    private static final Map<Connection, Map<String, PreparedStatement>> KEPT = new IdentityHashMap<>();

    /** The class of the connections a HikariCP pool lends. */
    private static final String HIKARI_PROXY = "com.zaxxer.hikari.pool.HikariProxyConnection";

    private KeptStatements() {}

    /** Whether statements are kept for {@code c}: a connection straight from a HikariCP pool. */
    static boolean keepsOn(Connection c) {
        return c.getClass().getName().equals(HIKARI_PROXY);
    }

    /** {@code sql} prepared on {@code c}'s physical connection: the one kept, or a new one, then kept. */
    static PreparedStatement take(Connection c, String sql) throws SQLException {
        return take(c, sql, null);
    }

    /**
     * {@code sql} prepared on {@code c}'s physical connection to return the generated keys of {@code keys}
     * (null: none), kept apart from the same text prepared without them.
     */
    static PreparedStatement take(Connection c, String sql, String[] keys) throws SQLException {
        Connection physical = c.unwrap(Connection.class);
        Map<String, PreparedStatement> statements;
        synchronized (KEPT) {
            statements = KEPT.get(physical);
            if (statements == null) {
                forgetClosed();
                statements = new Lru();
                KEPT.put(physical, statements);
            }
        }
        String key = key(sql, keys);
        PreparedStatement ps = statements.get(key);
        if (ps == null || ps.isClosed()) {
            ps = keys == null ? physical.prepareStatement(sql) : physical.prepareStatement(sql, keys);
            statements.put(key, ps);
        }
        return ps;
    }

    /** The key a statement is kept under: its text, and the generated keys it returns. */
    private static String key(String sql, String[] keys) {
        return keys == null ? sql : sql + "\u0000" + String.join(",", keys);
    }

    /** Closes and forgets a statement that failed: the next use prepares it afresh. */
    static void drop(Connection c, String sql, PreparedStatement ps) {
        drop(c, sql, null, ps);
    }

    /** Closes and forgets a statement prepared for {@code keys} that failed. */
    static void drop(Connection c, String sql, String[] keys, PreparedStatement ps) {
        try {
            Map<String, PreparedStatement> statements;
            synchronized (KEPT) {
                statements = KEPT.get(c.unwrap(Connection.class));
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

    /** Drops the statements of the connections that have closed; under {@link #KEPT}'s monitor. */
    private static void forgetClosed() {
        KEPT.keySet().removeIf(connection -> {
            try {
                return connection.isClosed();
            } catch (SQLException e) {
                return true;
            }
        });
    }

    /** Whether statements are kept for the driver's connection {@code physical} (for tests). */
    static boolean keepsFor(Connection physical) {
        synchronized (KEPT) {
            return KEPT.containsKey(physical);
        }
    }

    /** One connection's statements, the least recently used closed beyond {@link #PER_CONNECTION}. */
    private static final class Lru extends LinkedHashMap<String, PreparedStatement> {
        Lru() {
            super(16, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= PER_CONNECTION) {
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
