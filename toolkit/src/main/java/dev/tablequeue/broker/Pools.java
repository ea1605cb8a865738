package dev.tablequeue.broker;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.util.OptionalInt;
import javax.sql.DataSource;

/**
 * What the broker reads off a connection pool it does not depend on: HikariCP's size, and its eviction of
 * a connection whose session must end.
 */
final class Pools {
    private Pools() {}

    /** The pool's maximum size (HikariCP's {@code getMaximumPoolSize()}); empty where the data source does not say. */
    static OptionalInt maximumSize(DataSource dataSource) {
        try {
            Method m = dataSource.getClass().getMethod("getMaximumPoolSize");
            return OptionalInt.of((Integer) m.invoke(dataSource));
        } catch (ReflectiveOperationException | ClassCastException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * Ends {@code connection}'s session instead of returning it to the pool: HikariCP's
     * {@code evictConnection}, or a JDBC abort elsewhere.
     */
    static void evict(DataSource dataSource, Connection connection) {
        try {
            Method m = dataSource.getClass().getMethod("evictConnection", Connection.class);
            // HikariCP closes an evicted connection on a thread of its own, later: the session ends here, now
            closeUnderlying(connection);
            m.invoke(dataSource, connection);
            return;
        } catch (ReflectiveOperationException e) {
            // not a HikariCP pool: abort below
        }
        try {
            connection.abort(Runnable::run);
        } catch (Exception ignored) {
            // the session may already be gone, which is what we want
        }
        try {
            connection.close();
        } catch (Exception ignored) {
            // closed by the abort
        }
    }

    /** Closes the driver's connection behind a pool's proxy, which ends its session on the server. */
    private static void closeUnderlying(Connection connection) {
        try {
            connection.unwrap(Connection.class).close();
        } catch (Exception ignored) {
            // already closed, or the session is gone: the pool's own close follows
        }
    }
}
