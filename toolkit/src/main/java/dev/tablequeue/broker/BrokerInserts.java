package dev.tablequeue.broker;

import dev.tablequeue.SchemaException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.BindingStatements;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueInserts;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.transport.LeadingInsert;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The publish's insert into each table ({@link QueueInserts}), built once per binding, and prepared when the
 * broker starts. A table with a unique key has its unique index checked once: by the start's rules where a route
 * or subscription of the broker names the table, else the first time a publish writes into it (on MySQL and
 * MariaDB a table without the index would take every duplicate).
 */
final class BrokerInserts {
    private final QueueDialect dialect;
    private final Map<RoleBinding<?>, QueueInserts> inserts = new ConcurrentHashMap<>();
    /** The bindings with a unique key whose index has been checked. */
    private final Set<RoleBinding<?>> checked = ConcurrentHashMap.newKeySet();

    BrokerInserts(QueueDialect dialect) {
        this.dialect = dialect;
    }

    /** The insert of {@code binding}, built once per binding. */
    Statement insert(RoleBinding<?> binding) {
        return inserts(binding).insert();
    }

    private QueueInserts inserts(RoleBinding<?> binding) {
        return inserts.computeIfAbsent(binding, b -> BindingStatements.inserts(dialect, b));
    }

    /**
     * Publishes one row of {@code binding}'s table per element of {@code values} (the insert's values, in order)
     * and returns each row's result in order (a row whose unique key is taken writes nothing).
     */
    List<PublishResult> publish(Connection c, RoleBinding<?> binding, List<List<Object>> values) throws SQLException {
        QueueInserts insert = inserts(binding);
        if (binding.has(Role.UNIQUE_KEY) && !checked.contains(binding)) {
            Optional<String> problem = insert.indexProblem(c);
            if (problem.isPresent()) {
                throw new SchemaException("publish: " + problem.get());
            }
            checked.add(binding);
        }
        List<PublishResult> results = new ArrayList<>(values.size());
        for (QueueInserts.Written w : insert.write(c, values)) {
            results.add(w.inserted() ? PublishResult.inserted(binding.tableName(), w.id())
                    : PublishResult.keyTaken(binding.tableName(), w.id()));
        }
        return results;
    }

    /** The insert of {@code binding} that writes {@code leading}'s row in the same statement; empty where none can. */
    Optional<QueueInserts.Leading> leading(RoleBinding<?> binding, LeadingInsert leading) {
        return inserts(binding).leading(leading);
    }

    /**
     * Prepares the insert of every table the broker's subscriptions read and its routes lead to (where the
     * route has no insert of its own), so a column a binding writes and its table lacks stops the start
     * rather than the first publish.
     */
    void prepare(Connection c, Collection<Subscription<?>> subscriptions, Map<String, QueueBroker.Route> routes) {
        Map<RoleBinding<?>, String> users = new LinkedHashMap<>();
        for (Subscription<?> s : subscriptions) {
            users.putIfAbsent(s.binding, "queue " + s.queue);
        }
        routes.forEach((name, route) -> {
            if (route.insert() == null) {
                users.putIfAbsent(route.binding(), "route \"" + name + "\"");
            }
        });
        users.forEach((binding, user) -> prepare(c, binding, user));
    }

    /**
     * Prepares the insert of {@code binding}'s table for {@code user} (a schedule, say, publishing into a table no
     * subscription or route names), and checks its unique index once, now.
     */
    void prepare(Connection c, RoleBinding<?> binding, String user) {
        StartRules.insert(dialect, c, binding, inserts(binding), user, StartRules.THROW);
        checked.add(binding);
    }
}
