package dev.tablequeue.broker;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.BindingStatements;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.transport.LeadingInsert;
import java.sql.Connection;
import java.util.Collection;
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
    private final Map<RoleBinding<?>, Statement> inserts = new ConcurrentHashMap<>();
    private final Map<RoleBinding<?>, Map<LeadingInsert, Optional<Statement>>> withLeading = new ConcurrentHashMap<>();

    BrokerInserts(QueueDialect dialect) {
        this.dialect = dialect;
    }

    /** The insert of {@code binding}, built once per binding. */
    Statement insert(RoleBinding<?> binding) {
        return inserts.computeIfAbsent(binding, b -> BindingStatements.insert(dialect, b));
    }

    /** The insert of {@code binding} that writes {@code leading}'s row in the same statement; empty where none can. */
    Optional<Statement> insertWith(RoleBinding<?> binding, LeadingInsert leading) {
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
        users.forEach((binding, user) -> StartRules.insert(dialect, c, binding, insert(binding), user, StartRules.THROW));
    }
}
