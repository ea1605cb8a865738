package dev.tablequeue.cli;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.QueueAdmin;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import javax.sql.DataSource;
import org.jooq.impl.DSL;
import picocli.CommandLine.Option;

/** Where the service's database is, and the service's classes: the options every command shares. */
final class Database {
    @Option(names = "--url", required = true, paramLabel = "JDBC_URL",
            description = "the service's database, e.g. jdbc:postgresql://host/db or jdbc:sqlite:/path/app.db")
    String url;

    @Option(names = "--user", description = "the database user, where the URL does not name it")
    String user;

    @Option(names = "--password", interactive = true, arity = "0..1",
            description = "the database password; --password alone asks for it")
    char[] password;

    @Option(names = "--classpath", paramLabel = "PATHS", split = "${sys:path.separator}",
            description = "jars and folders holding the service's classes (and any JDBC driver beside the built-in"
                    + " PostgreSQL, MariaDB and SQLite ones); a Spring Boot jar is read with its BOOT-INF/lib")
    List<Path> classpath = List.of();

    /** Reads "now" as of this instant: for reproducible output. */
    @Option(names = "--now", hidden = true)
    Instant now;

    /** An admin on {@code connection}, reading "now" as {@code --now} says where it is given. */
    QueueAdmin admin(Connection connection) {
        QueueAdmin admin = QueueAdmin.of(DSL.using(connection));
        return now == null ? admin : admin.withClock(Clock.fixed(now, ZoneOffset.UTC));
    }

    /** The admin of {@code dataSource}, reading "now" as {@code --now} says where it is given. */
    QueueAdmin admin(DataSource dataSource) {
        QueueAdmin admin = QueueAdmin.of(dataSource);
        return now == null ? admin : admin.withClock(Clock.fixed(now, ZoneOffset.UTC));
    }

    /** A connection to the database, through the service's class path's drivers first. */
    Connection connect(ClassLoader loader) {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", new String(password));
        }
        try {
            for (Driver driver : ServiceLoader.load(Driver.class, loader)) {
                if (driver.acceptsURL(url)) {
                    Connection c = driver.connect(url, properties);
                    if (c != null) {
                        return c;
                    }
                }
            }
            return DriverManager.getConnection(url, properties);
        } catch (SQLException e) {
            throw new TableQueueException("cannot connect to " + url + ": " + e.getMessage(), e);
        }
    }

    /**
     * The pool's source of connections: the service's class path's drivers first, as {@link #open()} connects.
     * Only getConnection is used (HikariCP asks nothing else of it).
     */
    record DriverSource(Database target, ClassLoader loader) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            try {
                return target.connect(loader);
            } catch (TableQueueException e) {
                throw e.getCause() instanceof SQLException s ? s : new SQLException(e.getMessage(), e);
            }
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
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
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }

}
