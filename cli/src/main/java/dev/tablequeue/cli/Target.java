package dev.tablequeue.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.QueueAdmin;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jooq.impl.DSL;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options every command on one queue table shares: where the database is, and which binding describes it. */
final class Target {
    @Mixin
    Database database;

    @Option(names = "--binding", required = true, paramLabel = "CLASS#FIELD",
            description = "a static final RoleBinding of the service, e.g. com.acme.Queues#SEND_EMAIL")
    String binding;

    /** The binding's table, and an admin on a connection to the database; close it when done. */
    Session open() {
        ServiceClassPath classes = ServiceClassPath.of(database.classpath);
        try {
            RoleBinding<?> b = Constants.binding(binding, classes.loader());
            Connection c = database.connect(classes.loader());
            return new Session(b, database.admin(c), c, classes);
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
        ServiceClassPath classes = ServiceClassPath.of(database.classpath);
        try {
            RoleBinding<?> b = Constants.binding(binding, classes.loader());
            HikariConfig config = new HikariConfig();
            config.setDataSource(new Database.DriverSource(database, classes.loader()));
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
        return database.admin(dataSource);
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
