package dev.tablequeue.broker;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueInserts;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.transport.LeadingInsert;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The insert a publish into each table runs, built once per binding, and prepared when the broker starts; and
 * the insert with a leading row, built once per binding and leading insert, the first time one is asked for.
 */
final class BrokerInserts {
    private final QueueDialect dialect;
    private final UniquePublish unique;
    private final Map<RoleBinding<?>, QueueInserts> inserts = new ConcurrentHashMap<>();
    private final Map<RoleBinding<?>, Map<LeadingInsert, Optional<Statement>>> withLeading = new ConcurrentHashMap<>();

    BrokerInserts(QueueDialect dialect) {
        this.dialect = dialect;
        this.unique = new UniquePublish(dialect);
    }

    /** The insert of {@code binding}, built once per binding. */
    Statement insert(RoleBinding<?> binding) {
        return inserts(binding).insert();
    }

    private QueueInserts inserts(RoleBinding<?> binding) {
        return inserts.computeIfAbsent(binding, b -> {
            dialect.validate(b);
            return dialect.inserts(b);
        });
    }

    /**
     * Publishes one row of {@code binding}'s table per element of {@code values} (the insert's values, in order)
     * and returns each row's result in order: {@link #write}'s, or where the table has a unique key,
     * {@link UniquePublish}'s (a row whose key is taken writes nothing).
     */
    List<PublishResult> publish(Connection c, RoleBinding<?> binding, List<List<Object>> values) throws SQLException {
        if (binding.has(Role.UNIQUE_KEY)) {
            return unique.write(c, binding, values, this);
        }
        List<PublishResult> results = new ArrayList<>(values.size());
        for (Object id : write(c, binding, values)) {
            results.add(PublishResult.inserted(binding.tableName(), id));
        }
        return results;
    }

    /**
     * Writes one row of {@code binding}'s table per element of {@code values} (the insert's values, in order) as
     * one batch, and returns each row's id in order ({@link QueueInserts#write}).
     */
    List<Object> write(Connection c, RoleBinding<?> binding, List<List<Object>> values) throws SQLException {
        return inserts(binding).write(c, values);
    }

    /** The insert of {@code binding} that writes {@code leading}'s row in the same statement; empty where none can. */
    Optional<Statement> insertWith(RoleBinding<?> binding, LeadingInsert leading) {
        if (binding.has(Role.UNIQUE_KEY)) {
            return Optional.empty(); // a leading row would be written for a message whose key may be taken
        }
        Map<LeadingInsert, Optional<Statement>> byLeading = withLeading.computeIfAbsent(binding,
                b -> new ConcurrentHashMap<>());
        Optional<Statement> insert = byLeading.get(leading);
        return insert != null ? insert : byLeading.computeIfAbsent(leading, l -> dialect.insertWith(binding, l));
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
        users.forEach((binding, user) -> {
            StartRules.insert(dialect, c, binding, insert(binding), user, StartRules.THROW);
            unique.checked(binding);
        });
    }

    /**
     * Prepares the insert of {@code binding}'s table for {@code user} (a schedule, say, publishing into a table no
     * subscription or route names), and checks its unique index once, now.
     */
    void prepare(Connection c, RoleBinding<?> binding, String user) {
        StartRules.insert(dialect, c, binding, insert(binding), user, StartRules.THROW);
        unique.checked(binding);
    }
}
