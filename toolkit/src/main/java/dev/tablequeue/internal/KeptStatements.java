package dev.tablequeue.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Prepared statements kept per physical connection, for a driver that compiles a statement each time it is
 * prepared and keeps no cache of its own (SQLite's: the compile took a quarter of a claim thread's time). A
 * statement is prepared on the connection the pool wraps, so the pool does not close it when the connection
 * goes back, and is used again by whoever borrows that connection next (a pool lends a connection to one
 * thread at a time). The statements of a connection go with it: the map holds it weakly, and its driver
 * closes them when it closes.
 *
 * <p>Only a connection straight from a HikariCP pool is unwrapped so ({@link #keepsOn}): its proxy hands over
 * the driver's connection. Any other data source may be a wrapper of the service's own (a tracing or
 * instrumenting one) that must see every statement, so its connections prepare each statement as before.
 */
final class KeptStatements {
    /** The most statements kept per connection; the least recently used one is closed beyond it. */
    private static final int PER_CONNECTION = 64;

    private static final Map<Connection, Map<String, PreparedStatement>> KEPT =
            Collections.synchronizedMap(new WeakHashMap<>());

    /** The class of the connections a HikariCP pool lends. */
    private static final String HIKARI_PROXY = "com.zaxxer.hikari.pool.HikariProxyConnection";

    private KeptStatements() {}

    /** Whether statements are kept for {@code c}: a connection straight from a HikariCP pool. */
    static boolean keepsOn(Connection c) {
        return c.getClass().getName().equals(HIKARI_PROXY);
    }

    /** {@code sql} prepared on {@code c}'s physical connection: the one kept, or a new one, then kept. */
    static PreparedStatement take(Connection c, String sql) throws SQLException {
        Connection physical = c.unwrap(Connection.class);
        Map<String, PreparedStatement> statements = KEPT.computeIfAbsent(physical, k -> new Lru());
        PreparedStatement ps = statements.get(sql);
        if (ps == null || ps.isClosed()) {
            ps = physical.prepareStatement(sql);
            statements.put(sql, ps);
        }
        return ps;
    }

    /** Closes and forgets a statement that failed: the next use prepares it afresh. */
    static void drop(Connection c, String sql, PreparedStatement ps) {
        try {
            Map<String, PreparedStatement> statements = KEPT.get(c.unwrap(Connection.class));
            if (statements != null) {
                statements.remove(sql, ps);
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
