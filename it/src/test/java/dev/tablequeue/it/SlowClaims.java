package dev.tablequeue.it;

import dev.tablequeue.test.contract.ForwardingDataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * A data source over a pool whose statements run {@code delay} late on a subscription's claim thread (named
 * {@code tablequeue-<table>-<queue>-claim-<n>}), as on a database whose claims are slow: every claim then takes
 * at least that long, and the runtime measures it so.
 */
final class SlowClaims extends ForwardingDataSource {
    private static final Set<String> EXECUTIONS =
            Set.of("execute", "executeUpdate", "executeQuery", "executeLargeUpdate", "executeBatch");

    private final long delayNanos;

    SlowClaims(DataSource target, Duration delay) {
        super(target);
        this.delayNanos = delay.toNanos();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return wrap(target.getConnection());
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return wrap(target.getConnection(user, password));
    }

    private Connection wrap(Connection c) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object own = ownAnswer(proxy, method, args);
            if (own != null) {
                return own;
            }
            Object result = invoke(c, method, args);
            return result instanceof PreparedStatement ps ? slow(ps) : result;
        };
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                handler);
    }

    private PreparedStatement slow(PreparedStatement ps) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (EXECUTIONS.contains(method.getName()) && Thread.currentThread().getName().contains("-claim-")) {
                // a slow database: the statement's answer comes late (a stand-in for the server's time)
                long until = System.nanoTime() + delayNanos;
                for (long left = delayNanos; left > 0; left = until - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            }
            return invoke(ps, method, args);
        };
        return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, handler);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
