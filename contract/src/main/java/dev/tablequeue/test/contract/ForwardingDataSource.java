package dev.tablequeue.test.contract;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import javax.sql.DataSource;

/**
 * A data source that hands out another's connections, and is neither a HikariCP pool nor a wrapper of one (so
 * the broker cannot read its size): the base of the suites' data sources that change what a pool gives, and
 * of a service's own test data sources that count or fail its connections. A subclass changes the connections
 * it lends ({@link #lend}), most often into proxies ({@link #intercepting}) whose calls it watches, delays or fails
 * before it {@link #forward}s them.
 */
public abstract class ForwardingDataSource implements DataSource {
    /** The data source whose connections this one hands out. */
    protected final DataSource target;

    /** Hands out {@code target}'s connections. */
    protected ForwardingDataSource(DataSource target) {
        this.target = target;
    }

    /**
     * What a proxy does with one call on it: answers it, or passes it on to {@code target} ({@link #forward}).
     *
     * @param <T> the type the proxy stands for
     */
    @FunctionalInterface
    public interface Call<T> {
        /** The answer to {@code method} called with {@code args} on the proxy of {@code target}. */
        Object on(T target, Method method, Object[] args) throws Throwable;
    }

    /** The connection this data source lends in place of {@code connection}, one of its target's: that one itself. */
    protected Connection lend(Connection connection) throws SQLException {
        return connection;
    }

    /**
     * A connection that answers {@code unwrap(Connection.class)} and {@code isWrapperFor(Connection.class)} itself
     * ({@link #ownAnswer}), so that it sees every statement prepared on it, and hands every other call to
     * {@code call}.
     */
    public static Connection intercepting(Connection connection, Call<Connection> call) {
        return (Connection) Proxy.newProxyInstance(ForwardingDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object own = ownAnswer(proxy, method, args);
                    return own != null ? own : call.on(connection, method, args);
                });
    }

    /** A statement that hands every call on it to {@code call}. */
    public static PreparedStatement intercepting(PreparedStatement statement, Call<PreparedStatement> call) {
        return proxy(PreparedStatement.class, statement, call);
    }

    /** A proxy of {@code type} over {@code target} that hands every call on it to {@code call}. */
    public static <T> T proxy(Class<T> type, T target, Call<T> call) {
        return type.cast(Proxy.newProxyInstance(ForwardingDataSource.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> call.on(target, method, args)));
    }

    /** Calls {@code method} on {@code target} with {@code args}, throwing what it throws (not its reflective wrapper). */
    public static Object forward(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * What a connection proxy answers itself rather than forwards: {@code unwrap(Connection.class)}
     * (the proxy) and {@code isWrapperFor(Connection.class)} (true). A dialect that keeps its statements on the
     * driver's connection (SQLite's) prepares them on what {@code unwrap(Connection.class)} hands over, so a proxy
     * that must see every statement answers with itself. Null for any other call, which the proxy forwards.
     */
    private static Object ownAnswer(Object proxy, Method method, Object[] args) {
        if (args == null || args.length != 1 || args[0] != Connection.class) {
            return null;
        }
        return switch (method.getName()) {
            case "unwrap" -> proxy;
            case "isWrapperFor" -> Boolean.TRUE;
            default -> null;
        };
    }

    @Override
    public Connection getConnection() throws SQLException {
        return lend(target.getConnection());
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return lend(target.getConnection(user, password));
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public java.util.logging.Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <W> W unwrap(Class<W> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }
}
