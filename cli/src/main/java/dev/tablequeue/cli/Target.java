package dev.tablequeue.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.InboxQueue;
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

/** The options every command shares: where the database is, and which binding describes its table. */
final class Target {
    @Option(names = "--url", required = true, paramLabel = "JDBC_URL",
            description = "the service's database, e.g. jdbc:postgresql://host/db or jdbc:sqlite:/path/app.db")
    String url;

    @Option(names = "--user", description = "the database user, where the URL does not name it")
    String user;

    @Option(names = "--password", interactive = true, arity = "0..1",
            description = "the database password; --password alone asks for it")
    char[] password;

    @Option(names = "--binding", required = true, paramLabel = "CLASS#FIELD",
            description = "a static final RoleBinding of the service, e.g. com.acme.Queues#SEND_EMAIL")
    String binding;

    @Option(names = "--classpath", paramLabel = "PATHS", split = "${sys:path.separator}",
            description = "jars and folders holding the binding's class (and any JDBC driver beside the built-in"
                    + " PostgreSQL, MariaDB and SQLite ones); a Spring Boot jar is read with its BOOT-INF/lib")
    List<Path> classpath = List.of();

    /** Reads "now" as of this instant: for reproducible output. */
    @Option(names = "--now", hidden = true)
    Instant now;

    /** The binding's table, and an admin on a connection to the database; close it when done. */
    Session open() {
        ServiceClassPath classes = ServiceClassPath.of(classpath);
        try {
            RoleBinding<?> b = BindingLoader.load(binding, classes.loader());
            Connection c = connect(classes.loader());
            QueueAdmin admin = QueueAdmin.of(DSL.using(c));
            if (now != null) {
                admin = admin.withClock(Clock.fixed(now, ZoneOffset.UTC));
            }
            return new Session(b, admin, c, classes);
        } catch (RuntimeException | Error e) {
            classes.close();
            throw e;
        }
    }

    /**
     * The binding's table, and a small pool of connections to the database (what a server or a broker needs,
     * which read from several threads); close it when done.
     */
    Pooled openPool(int size) {
        ServiceClassPath classes = ServiceClassPath.of(classpath);
        try {
            RoleBinding<?> b = BindingLoader.load(binding, classes.loader());
            HikariConfig config = new HikariConfig();
            config.setDataSource(new DriverSource(this, classes.loader()));
            config.setMaximumPoolSize(size);
            config.setMinimumIdle(1);
            config.setPoolName("tablequeue-cli");
            return new Pooled(b, new HikariDataSource(config), classes);
        } catch (RuntimeException | Error e) {
            classes.close();
            throw e;
        }
    }

    /** The admin of {@code dataSource}, reading "now" as {@code --now} says where it is given. */
    QueueAdmin admin(DataSource dataSource) {
        QueueAdmin admin = QueueAdmin.of(dataSource);
        return now == null ? admin : admin.withClock(Clock.fixed(now, ZoneOffset.UTC));
    }

    private Connection connect(ClassLoader loader) {
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

    /** A command's binding and admin, on one connection, and the service's classes the binding came from. */
    record Session(RoleBinding<?> binding, QueueAdmin admin, Connection connection, ServiceClassPath classes)
            implements AutoCloseable {
        /** The queue {@code name} of the binding's table; the table's name where none is given. */
        InboxQueue<?> queue(String name) {
            return InboxQueue.of(binding, name != null ? name : binding.table().getName());
        }

        @Override
        public void close() {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the command's work is done; the server ends the session
            } finally {
                classes.close();
            }
        }
    }

    /** A command's binding and pool, and the service's classes the binding came from. */
    record Pooled(RoleBinding<?> binding, HikariDataSource pool, ServiceClassPath classes) implements AutoCloseable {
        /** The queue {@code name} of the binding's table; the table's name where none is given. */
        InboxQueue<?> queue(String name) {
            return InboxQueue.of(binding, name != null ? name : binding.table().getName());
        }

        @Override
        public void close() {
            try {
                pool.close();
            } finally {
                classes.close();
            }
        }
    }

    /**
     * The pool's source of connections: the service's class path's drivers first, as {@link #open()} connects.
     * Only getConnection is used (HikariCP asks nothing else of it).
     */
    private record DriverSource(Target target, ClassLoader loader) implements DataSource {
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

    /** Where a queue's dead letters are: a group of its table, or a table of their own. */
    static final class DeadLetterOption {
        @Option(names = "--dead-letter", paramLabel = "GROUP", description = "the dead-letter group of the queue")
        String group;

        @Option(names = "--dead-letter-table", paramLabel = "TABLE",
                description = "the dead-letter table of the queue, with the queue table's columns")
        String table;

        DeadLetter deadLetter() {
            return group != null ? DeadLetter.group(group) : DeadLetter.table(DSL.table(DSL.name(table.split("\\."))));
        }
    }
}
