package dev.tablequeue.broker;

import dev.tablequeue.NoRouteException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.BindingStatements;
import dev.tablequeue.dialect.TransactionOpening;
import dev.tablequeue.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jooq.DSLContext;
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
    private final MessageRows rows;

    Publisher(QueueBroker broker, Map<String, QueueBroker.Route> routes) {
        this.broker = broker;
        this.routes = routes;
        this.rows = new MessageRows(broker.codec);
    }

    /**
     * Publishes {@code payload} under {@code name}, into the table a route leads the name to.
     *
     * @return the row's id and table
     */
    public PublishResult publish(String name, Object payload) {
        return publish(Message.of(name, payload));
    }

    /**
     * Publishes {@code message} into the table a route leads its name to.
     *
     * @return the row's id and table
     */
    public PublishResult publish(Message message) {
        return through(null, message, () -> publishUntracked(message));
    }

    private PublishResult publishUntracked(Message message) {
        QueueBroker.Route route = route(message.name());
        broker.requireOpen("publish " + message.name());
        PublishResult result;
        try (Connection c = broker.dataSource.getConnection()) {
            result = write(c, route, message, null);
        } catch (SQLException e) {
            throw new TableQueueException("publish of " + message.name() + " into \"" + route.binding().tableName()
                    + "\" failed: " + e.getMessage(), e);
        }
        broker.wakeups.wake(route.binding(), group(route.binding(), message));
        return result;
    }

    /**
     * Publishes {@code message} inside the caller's transaction, into the table a route leads its name to.
     * Its subscriptions wake when the row is visible: at once where the connection commits each statement,
     * else at the commit of a jOOQ transaction configured with {@link CommitWakeups}, else at growing
     * intervals until it is found.
     *
     * @return the row's id and table; the row is visible to others once the caller's transaction commits
     */
    public PublishResult publish(DSLContext ctx, Message message) {
        return publishIn(ctx, route(message.name()), message);
    }

    /**
     * Publishes {@code message} into {@code binding}'s table, on a connection of its own.
     *
     * @return the row's id and table
     */
    public PublishResult publish(RoleBinding<?> binding, Message message) {
        return through(null, message, () -> publishUntracked(binding, message));
    }

    private PublishResult publishUntracked(RoleBinding<?> binding, Message message) {
        broker.requireOpen("publish " + message.name());
        PublishResult result;
        try (Connection c = broker.dataSource.getConnection()) {
            result = write(c, new QueueBroker.Route(binding, null), message, null);
        } catch (SQLException e) {
            throw new TableQueueException("publish of " + message.name() + " into \"" + binding.tableName()
                    + "\" failed: " + e.getMessage(), e);
        }
        broker.wakeups.wake(binding, group(binding, message));
        return result;
    }

    /**
     * Publishes {@code message} into {@code binding}'s table inside the caller's transaction; its
     * subscriptions wake as {@link #publish(DSLContext, Message)} says.
     *
     * @return the row's id and table; the row is visible to others once the caller's transaction commits
     */
    public PublishResult publish(DSLContext ctx, RoleBinding<?> binding, Message message) {
        return publishIn(ctx, new QueueBroker.Route(binding, null), message);
    }

    /**
     * Publishes {@code message} through the middlewares into {@code route}'s table, in the caller's
     * transaction. Where the binding's insert writes the row, a middleware may ask for a row written first in
     * the same statement ({@link TableOutgoing#writeFirst}).
     */
    private PublishResult publishIn(DSLContext ctx, QueueBroker.Route route, Message message) {
        if (!broker.middlewares.publishes()) {
            return publishUntracked(ctx, route, message, null);
        }
        TableOutgoing out = new TableOutgoing(message, ctx, broker.codec, route.insert() == null ? broker.inserts
                : null, route.binding());
        return through(out, () -> publishUntracked(ctx, route, message, out));
    }

    private PublishResult publishUntracked(DSLContext ctx, QueueBroker.Route route, Message message,
            TableOutgoing out) {
        broker.requireOpen("publish " + message.name());
        PublishResult[] result = new PublishResult[1];
        boolean committed = ctx.connectionResult(c -> {
            result[0] = write(c, route, message, out);
            return c.getAutoCommit();
        });
        wakeWhenVisible(committed, route.binding(), Collections.singleton(group(route.binding(), message)));
        return result[0];
    }

    /**
     * Publishes {@code messages} into {@code binding}'s table together, on a connection of its own: the
     * insert is sent once as a JDBC batch and the rows commit together, or (a failure) none of them does.
     *
     * @return one result per message, in the order given: each row's id and table ({@link PublishResult#noRow()}
     *     for a message a publish middleware did not pass on)
     */
    public List<PublishResult> publishAll(RoleBinding<?> binding, List<Message> messages) {
        List<Message> passed = throughEach(null, messages);
        return resultsOf(messages, passed, publishAllUntracked(binding, passed));
    }

    private List<PublishResult> publishAllUntracked(RoleBinding<?> binding, List<Message> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        broker.requireOpen("publish " + messages.size() + " message(s) into \"" + binding.tableName() + "\"");
        List<PublishResult> results;
        try (Connection c = broker.dataSource.getConnection()) {
            Transactions.begin(c, TransactionOpening.DEFAULT);
            try {
                results = writeAll(c, binding, messages);
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
        return results;
    }

    /**
     * Publishes {@code messages} into {@code binding}'s table inside the caller's transaction, the insert sent
     * once as a JDBC batch: they commit (or roll back) with the caller's work. Their subscriptions wake as
     * {@link #publish(DSLContext, Message)} says.
     *
     * @return one result per message, in the order given, as {@link #publishAll(RoleBinding, List)} returns
     */
    public List<PublishResult> publishAll(DSLContext ctx, RoleBinding<?> binding, List<Message> messages) {
        List<Message> passed = throughEach(ctx, messages);
        return resultsOf(messages, passed, publishAllUntracked(ctx, binding, passed));
    }

    private List<PublishResult> publishAllUntracked(DSLContext ctx, RoleBinding<?> binding, List<Message> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        broker.requireOpen("publish " + messages.size() + " message(s) into \"" + binding.tableName() + "\"");
        List<List<PublishResult>> results = new ArrayList<>(1);
        boolean committed = ctx.connectionResult(c -> {
            results.add(writeAll(c, binding, messages));
            return c.getAutoCommit();
        });
        wakeWhenVisible(committed, binding, groups(binding, messages));
        return results.get(0);
    }

    /**
     * The result of each of {@code messages}: that of its row where the middlewares passed it on (the
     * {@code written} results are those of {@code passed}, in order), {@link PublishResult#noRow()} where not.
     */
    private static List<PublishResult> resultsOf(List<Message> messages, List<Message> passed,
            List<PublishResult> written) {
        if (passed == messages) {
            return written;
        }
        List<PublishResult> results = new ArrayList<>(messages.size());
        int next = 0;
        for (Message message : messages) {
            if (next < passed.size() && passed.get(next) == message) {
                results.add(written.get(next++));
            } else {
                results.add(PublishResult.noRow());
            }
        }
        return results;
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
    private PublishResult through(DSLContext ctx, Message message, Supplier<PublishResult> send) {
        if (!broker.middlewares.publishes()) {
            return send.get();
        }
        return through(new TableOutgoing(message, ctx, broker.codec), send);
    }

    /** The result of the send, or {@link PublishResult#noRow()} where the middlewares did not pass it on. */
    private PublishResult through(TableOutgoing message, Supplier<PublishResult> send) {
        PublishResult[] result = new PublishResult[1];
        try {
            broker.middlewares.publish(message, m -> result[0] = send.get());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TableQueueException("publish of " + message.name() + " failed in a publish middleware: "
                    + e.getMessage(), e);
        }
        return result[0] != null ? result[0] : PublishResult.noRow();
    }

    /** The messages of a batch that the middlewares passed on to the send, each through the chain on its own. */
    private List<Message> throughEach(DSLContext ctx, List<Message> messages) {
        if (!broker.middlewares.publishes()) {
            return messages;
        }
        List<Message> passed = new ArrayList<>(messages.size());
        for (Message message : messages) {
            through(ctx, message, () -> {
                passed.add(message);
                return PublishResult.noRow();
            });
        }
        return passed;
    }

    /**
     * Writes every message with the binding's insert (one JDBC batch) and one notification per group, and
     * returns each row's result in order.
     */
    private List<PublishResult> writeAll(Connection c, RoleBinding<?> binding, List<Message> messages)
            throws SQLException {
        List<List<Object>> values = new ArrayList<>(messages.size());
        for (Message message : messages) {
            values.add(rows.values(binding, message));
        }
        List<PublishResult> results = broker.inserts.publish(c, binding, values);
        if (broker.listenNotify) {
            for (String group : groups(binding, messages)) {
                notify(c, binding, group);
            }
        }
        return results;
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

    /**
     * Writes {@code message}'s row, and the leading row a middleware asked {@code out} for (null: none), and
     * returns the row's result: its id where the message gave it or the database returned it.
     */
    private PublishResult write(Connection c, QueueBroker.Route route, Message message, TableOutgoing out)
            throws SQLException {
        RoleBinding<?> binding = route.binding();
        Object id;
        if (out != null && out.leads()) {
            Object returned = out.writeWithLeading(c, rows.values(binding, message));
            Object given = MessageRows.givenId(binding, message);
            id = given != null ? given : returned;
        } else if (route.insert() != null) {
            try {
                route.insert().insert(DSL.using(c, broker.dialect.sqlDialect()), message, rows.encode(message));
            } catch (SQLException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new TableQueueException("the own insert of " + message.name() + " into \""
                        + binding.tableName() + "\" failed: " + e.getMessage(), e);
            }
            id = MessageRows.givenId(binding, message);
        } else {
            PublishResult result = broker.inserts.publish(c, binding, List.of(rows.values(binding, message))).get(0);
            if (broker.listenNotify && result.inserted()) {
                notify(c, binding, group(binding, message));
            }
            return result;
        }
        if (broker.listenNotify) {
            notify(c, binding, group(binding, message));
        }
        return PublishResult.inserted(binding.tableName(), id);
    }

    /** Notifies the listeners of {@code binding}'s table (PostgreSQL); a failure leaves the row to the poll. */
    private void notify(Connection c, RoleBinding<?> binding, String group) {
        try {
            broker.dialect.notifications().notify(c, BindingStatements.channel(binding), group == null ? "" : group);
        } catch (SQLException e) {
            LOG.warn("the notification of a publish into \"{}\" failed; the poll will find the row: {}",
                    binding.tableName(), e.toString());
        }
    }
}
