package dev.tablequeue.test.contract;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import javax.sql.DataSource;

/**
 * A data source that hands out another's connections, and is neither a HikariCP pool nor a wrapper of one (so
 * the broker cannot read its size): the base of the suites' data sources that change what a pool gives, and
 * of a service's own test data sources that count or fail its connections.
 */
public abstract class ForwardingDataSource implements DataSource {
    /** The data source whose connections this one hands out. */
    protected final DataSource target;

    /** Hands out {@code target}'s connections. */
    protected ForwardingDataSource(DataSource target) {
        this.target = target;
    }

    /**
     * What a connection proxy of a subclass answers itself rather than forwards: {@code unwrap(Connection.class)}
     * (the proxy) and {@code isWrapperFor(Connection.class)} (true). A dialect that keeps its statements on the
     * driver's connection (SQLite's) prepares them on what {@code unwrap(Connection.class)} hands over, so a proxy
     * that must see every statement answers with itself. Null for any other call, which the proxy forwards.
     */
    public static Object ownAnswer(Object proxy, java.lang.reflect.Method method, Object[] args) {
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
        return target.getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return target.getConnection(user, password);
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
