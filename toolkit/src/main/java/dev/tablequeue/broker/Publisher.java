package dev.tablequeue.broker;

import dev.tablequeue.HeaderException;
import dev.tablequeue.NoRouteException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.BindingStatements;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.TransactionOpening;
import dev.tablequeue.internal.Jdbc;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes messages as rows of queue tables, with each binding's insert, and wakes the subscriptions that read
 * them. A publish takes a connection of the pool and commits on its own, or joins the caller's transaction
 * when given the caller's {@link DSLContext}, so a task commits with the data it belongs to.
 */
public final class Publisher {
    private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);

    private final QueueBroker broker;
    private final Map<String, QueueBroker.Route> routes;

    Publisher(QueueBroker broker, Map<String, QueueBroker.Route> routes) {
        this.broker = broker;
        this.routes = routes;
    }

    /** Publishes {@code payload} under {@code name}, into the table a route leads the name to. */
    public void publish(String name, Object payload) {
        publish(Message.of(name, payload));
    }

    /** Publishes {@code message} into the table a route leads its name to. */
    public void publish(Message message) {
        through(null, message, () -> publishUntracked(message));
    }

    private void publishUntracked(Message message) {
        QueueBroker.Route route = route(message.name());
        broker.requireOpen("publish " + message.name());
        try (Connection c = broker.dataSource.getConnection()) {
            write(c, route, message);
        } catch (SQLException e) {
            throw new TableQueueException("publish of " + message.name() + " into \"" + route.binding().tableName()
                    + "\" failed: " + e.getMessage(), e);
        }
        broker.wakeups.wake(route.binding(), group(route.binding(), message));
    }

    /**
     * Publishes {@code message} inside the caller's transaction, into the table a route leads its name to.
     * Its subscriptions wake when the row is visible: at once where the connection commits each statement,
     * else at the commit of a jOOQ transaction configured with {@link CommitWakeups}, else at growing
     * intervals until it is found.
     */
    public void publish(DSLContext ctx, Message message) {
        publishIn(ctx, route(message.name()), message);
    }

    /** Publishes {@code message} into {@code binding}'s table, on a connection of its own. */
    public void publish(RoleBinding<?> binding, Message message) {
        through(null, message, () -> publishUntracked(binding, message));
    }

    private void publishUntracked(RoleBinding<?> binding, Message message) {
        broker.requireOpen("publish " + message.name());
        try (Connection c = broker.dataSource.getConnection()) {
            write(c, new QueueBroker.Route(binding, null), message);
        } catch (SQLException e) {
            throw new TableQueueException("publish of " + message.name() + " into \"" + binding.tableName()
                    + "\" failed: " + e.getMessage(), e);
        }
        broker.wakeups.wake(binding, group(binding, message));
    }

    /**
     * Publishes {@code message} into {@code binding}'s table inside the caller's transaction; its
     * subscriptions wake as {@link #publish(DSLContext, Message)} says.
     */
    public void publish(DSLContext ctx, RoleBinding<?> binding, Message message) {
        publishIn(ctx, new QueueBroker.Route(binding, null), message);
    }

    /**
     * Publishes {@code message} through the middlewares into {@code route}'s table, in the caller's
     * transaction. Where the binding's insert writes the row, a middleware may ask for a row written first in
     * the same statement ({@link TableOutgoing#writeFirst}).
     */
    private void publishIn(DSLContext ctx, QueueBroker.Route route, Message message) {
        if (!broker.middlewares.publishes()) {
            publishUntracked(ctx, route, message, null);
            return;
        }
        TableOutgoing out = new TableOutgoing(message, ctx, broker.codec, route.insert() == null ? broker.inserts
                : null, route.binding());
        through(out, () -> publishUntracked(ctx, route, message, out));
    }

    private void publishUntracked(DSLContext ctx, QueueBroker.Route route, Message message, TableOutgoing out) {
        broker.requireOpen("publish " + message.name());
        boolean committed = ctx.connectionResult(c -> {
            write(c, route, message, out);
            return c.getAutoCommit();
        });
        wakeWhenVisible(committed, route.binding(), Collections.singleton(group(route.binding(), message)));
    }

    /**
     * Publishes {@code messages} into {@code binding}'s table together, on a connection of its own: the
     * insert is sent once as a JDBC batch and the rows commit together, or (a failure) none of them does.
     */
    public void publishAll(RoleBinding<?> binding, List<Message> messages) {
        publishAllUntracked(binding, throughEach(null, messages));
    }

    private void publishAllUntracked(RoleBinding<?> binding, List<Message> messages) {
        if (messages.isEmpty()) {
            return;
        }
        broker.requireOpen("publish " + messages.size() + " message(s) into \"" + binding.tableName() + "\"");
        try (Connection c = broker.dataSource.getConnection()) {
            Transactions.begin(c, TransactionOpening.DEFAULT);
            try {
                writeAll(c, binding, messages);
                Transactions.commit(c, TransactionOpening.DEFAULT);
            } catch (SQLException | RuntimeException e) {
                Transactions.rollbackQuietly(c, TransactionOpening.DEFAULT);
                throw e;
            }
        } catch (SQLException e) {
            throw new TableQueueException("publish of " + messages.size() + " message(s) into \""
                    + binding.tableName() + "\" failed, and none was written: " + e.getMessage(), e);
        }
        wakeAll(binding, messages);
    }

    /**
     * Publishes {@code messages} into {@code binding}'s table inside the caller's transaction, the insert sent
     * once as a JDBC batch: they commit (or roll back) with the caller's work. Their subscriptions wake as
     * {@link #publish(DSLContext, Message)} says.
     */
    public void publishAll(DSLContext ctx, RoleBinding<?> binding, List<Message> messages) {
        publishAllUntracked(ctx, binding, throughEach(ctx, messages));
    }

    private void publishAllUntracked(DSLContext ctx, RoleBinding<?> binding, List<Message> messages) {
        if (messages.isEmpty()) {
            return;
        }
        broker.requireOpen("publish " + messages.size() + " message(s) into \"" + binding.tableName() + "\"");
        boolean committed = ctx.connectionResult(c -> {
            writeAll(c, binding, messages);
            return c.getAutoCommit();
        });
        wakeWhenVisible(committed, binding, groups(binding, messages));
    }

    /**
     * Wakes the subscriptions of {@code groups} (null: the table has none) of {@code binding}'s table once the
     * rows a caller's connection wrote are visible: now where it {@code committed} them; at the commit of the
     * jOOQ transaction open on this thread, where it carries {@link CommitWakeups}; at the commit the broker's
     * {@link AfterCommit} hook defers it to, where it takes it; else now and at growing intervals after.
     */
    private void wakeWhenVisible(boolean committed, RoleBinding<?> binding, Set<String> groups) {
        Runnable wake = () -> groups.forEach(group -> broker.wakeups.wake(binding, group));
        if (committed) {
            wake.run();
        } else if (!CommitWakeups.defer(wake) && !broker.afterCommit.defer(wake)) {
            groups.forEach(group -> broker.wakeups.wakeUntilCommitted(binding, group));
        }
    }

    /**
     * Runs {@code send} as the end of the broker's publish middlewares, or at once where there are none. A
     * middleware's checked exception reaches the caller as a {@link TableQueueException}.
     */
    private void through(DSLContext ctx, Message message, Runnable send) {
        if (!broker.middlewares.publishes()) {
            send.run();
            return;
        }
        through(new TableOutgoing(message, ctx, broker.codec), send);
    }

    private void through(TableOutgoing message, Runnable send) {
        try {
            broker.middlewares.publish(message, m -> send.run());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TableQueueException("publish of " + message.name() + " failed in a publish middleware: "
                    + e.getMessage(), e);
        }
    }

    /** The messages of a batch that the middlewares passed on to the send, each through the chain on its own. */
    private List<Message> throughEach(DSLContext ctx, List<Message> messages) {
        if (!broker.middlewares.publishes()) {
            return messages;
        }
        List<Message> passed = new ArrayList<>(messages.size());
        for (Message message : messages) {
            through(ctx, message, () -> passed.add(message));
        }
        return passed;
    }

    /** Writes every message with the binding's insert (one JDBC batch) and one notification per group. */
    private void writeAll(Connection c, RoleBinding<?> binding, List<Message> messages) throws SQLException {
        Statement insert = broker.insert(binding);
        List<Binds> rows = new ArrayList<>(messages.size());
        for (Message message : messages) {
            rows.add(new Binds().values(values(binding, message)));
        }
        Jdbc.updateEach(c, insert, rows, broker.dialect);
        if (broker.listenNotify) {
            for (String group : groups(binding, messages)) {
                notify(c, binding, group);
            }
        }
    }

    private void wakeAll(RoleBinding<?> binding, List<Message> messages) {
        for (String group : groups(binding, messages)) {
            broker.wakeups.wake(binding, group);
        }
    }

    /** The distinct groups {@code messages} go to (null where the table has no groups). */
    private static Set<String> groups(RoleBinding<?> binding, List<Message> messages) {
        Set<String> groups = new LinkedHashSet<>();
        for (Message message : messages) {
            groups.add(group(binding, message));
        }
        return groups;
    }

    /** The binding a name's route leads to: an exact name first, else the longest matching prefix. */
    QueueBroker.Route route(String name) {
        QueueBroker.Route exact = routes.get(name);
        if (exact != null) {
            return exact;
        }
        QueueBroker.Route best = null;
        int longest = -1;
        for (Map.Entry<String, QueueBroker.Route> e : routes.entrySet()) {
            String route = e.getKey();
            if (route.endsWith("*")) {
                String prefix = route.substring(0, route.length() - 1);
                if (name.startsWith(prefix) && prefix.length() > longest) {
                    best = e.getValue();
                    longest = prefix.length();
                }
            }
        }
        if (best == null) {
            throw new NoRouteException("no route leads \"" + name + "\" to a table; routes: " + routes.keySet());
        }
        return best;
    }

    private static String group(RoleBinding<?> binding, Message message) {
        return binding.has(Role.GROUP) ? message.name() : null;
    }

    private void write(Connection c, QueueBroker.Route route, Message message) throws SQLException {
        write(c, route, message, null);
    }

    /** Writes {@code message}'s row, and the leading row a middleware asked {@code out} for (null: none). */
    private void write(Connection c, QueueBroker.Route route, Message message, TableOutgoing out)
            throws SQLException {
        RoleBinding<?> binding = route.binding();
        if (out != null && out.leads()) {
            out.writeWithLeading(c, values(binding, message), broker.dialect);
        } else if (route.insert() != null) {
            try {
                route.insert().insert(DSL.using(c, broker.dialect.sqlDialect()), message, encode(message));
            } catch (SQLException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new TableQueueException("the own insert of " + message.name() + " into \""
                        + binding.tableName() + "\" failed: " + e.getMessage(), e);
            }
        } else {
            Statement insert = broker.insert(binding);
            Jdbc.update(c, insert, new Binds().values(values(binding, message)), broker.dialect);
        }
        if (broker.listenNotify) {
            notify(c, binding, group(binding, message));
        }
    }

    /** Notifies the listeners of {@code binding}'s table (PostgreSQL); a failure leaves the row to the poll. */
    private void notify(Connection c, RoleBinding<?> binding, String group) {
        BindingStatements.notify(broker.dialect, binding).ifPresent(notify -> {
            try {
                Jdbc.query(c, notify, new Binds().group(group == null ? "" : group), broker.dialect, rs -> null);
            } catch (SQLException e) {
                LOG.warn("the notification of a publish into \"{}\" failed; the poll will find the row: {}",
                        binding.tableName(), e.toString());
            }
        });
    }

    /** The values of the binding's insert columns for {@code message}, in order. */
    private List<Object> values(RoleBinding<?> binding, Message message) {
        Map<String, String> headers = message.headers();
        Set<String> headerFields = new HashSet<>();
        binding.headerFields().forEach(f -> headerFields.add(f.getName()));
        if (!binding.has(Role.HEADERS)) {
            for (String header : headers.keySet()) {
                if (!headerFields.contains(header) && !message.values().containsKey(header)) {
                    throw new HeaderException("table \"" + binding.tableName() + "\" keeps no header \"" + header
                            + "\" (it keeps " + (headerFields.isEmpty() ? "no headers" : headerFields)
                            + "): the publish of " + message.name() + " would lose it");
                }
            }
        }
        Set<String> written = new HashSet<>();
        binding.insertColumns().forEach(f -> written.add(f.getName()));
        for (String column : message.values().keySet()) {
            if (!written.contains(column)) {
                throw new TableQueueException("the publish of " + message.name() + " sets column \"" + column
                        + "\", which the insert of table \"" + binding.tableName() + "\" does not write (it writes "
                        + written + "; the database fills the others): declare it with data(..) or leave it out");
            }
        }
        List<Object> values = new ArrayList<>();
        for (Field<?> column : binding.insertColumns()) {
            String name = column.getName();
            if (message.values().containsKey(name)) {
                values.add(message.values().get(name));
            } else if (binding.column(Role.GROUP).map(f -> f.getName().equals(name)).orElse(false)) {
                values.add(message.name());
            } else if (binding.column(Role.PAYLOAD).map(f -> f.getName().equals(name)).orElse(false)) {
                values.add(payload(binding, column, message));
            } else if (binding.column(Role.HEADERS).map(f -> f.getName().equals(name)).orElse(false)) {
                values.add(RowReader.writeHeaders(headers));
            } else if (headerFields.contains(name)) {
                values.add(headers.get(name));
            } else {
                values.add(null);
            }
        }
        return values;
    }

    private Object payload(RoleBinding<?> binding, Field<?> column, Message message) {
        byte[] bytes = encode(message);
        if (bytes == null) {
            // a row without a payload would reach no handler: it would fail to decode on every claim
            throw new TableQueueException("the publish of " + message.name() + " into \"" + binding.tableName()
                    + "\" carries no payload, and the table's payload column \"" + column.getName() + "\" (the"
                    + " payload role) needs one: publish Message.of(name, payload) with a payload that is not null");
        }
        return column.getType() == byte[].class ? bytes : new String(bytes, StandardCharsets.UTF_8);
    }

    private byte[] encode(Message message) {
        if (message.payload() == null) {
            return null;
        }
        try {
            return broker.codec.encode(message.payload());
        } catch (Exception e) {
            throw new TableQueueException("the payload of " + message.name() + " does not encode: " + e.getMessage(),
                    e);
        }
    }
}
