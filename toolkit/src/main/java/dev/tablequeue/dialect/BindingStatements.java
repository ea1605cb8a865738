package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Table;

/**
 * Every statement the runtime runs for a binding on one database, built by the one path the broker takes:
 * a publish's insert and notification, and the statements a subscription prepares when it opens. The
 * build-time check ({@code tablequeue:check}) prepares these on a migrated database through
 * {@link dev.tablequeue.broker.StartRules}, the rules the broker's start runs, so what it checks is what the
 * broker will run.
 */
public final class BindingStatements {
    private BindingStatements() {}

    /**
     * What a subscription's claims and fetches read for {@code binding}: the delivery's columns in payload
     * mode, the whole row in row mode (a subscription takes {@code payload(..)} or {@code rows()} as the
     * table's mode says, or is refused when the broker starts).
     */
    public static ClaimShape shape(RoleBinding<?> binding) {
        return binding.payloadMode() ? ClaimShape.ROLES : ClaimShape.ROWS;
    }

    /**
     * What a publish into {@code binding}'s table runs, after the dialect has accepted the binding.
     *
     * @throws DialectException where the database cannot serve the binding (a name, a unique key)
     */
    public static QueueInserts inserts(QueueDialect dialect, RoleBinding<?> binding) {
        dialect.validate(binding);
        return dialect.inserts(binding);
    }

    /** The channel a publish into {@code binding}'s table notifies and its subscriptions listen on. */
    public static String channel(RoleBinding<?> binding) {
        return binding.tableName();
    }

    /** What the notification of a publish into {@code binding}'s table runs; none where the database has none. */
    public static List<Statement> notify(QueueDialect dialect, RoleBinding<?> binding) {
        return dialect.notifications().statements(channel(binding));
    }

    /**
     * Every statement {@code binding} may run on {@code dialect}'s database, in the order a subscription
     * prepares them, then the publish's insert and notification. It covers each variant a subscription of the
     * binding may take: the dead letter into a group where the table has a group column, and into
     * {@code deadLetterTable} where one is given (null: none).
     *
     * @throws DialectException where the database cannot serve the binding (a form, a level, a name)
     */
    public static List<Statement> every(QueueDialect dialect, RoleBinding<?> binding, Table<?> deadLetterTable) {
        dialect.validate(binding);
        SubscriptionStatements subscription = SubscriptionStatements.build(
                dialect, binding, shape(binding), binding.has(Role.GROUP), deadLetterTable);
        List<Statement> every = new ArrayList<>(subscription.all());
        every.addAll(inserts(dialect, binding).statements());
        every.addAll(notify(dialect, binding));
        return List.copyOf(every);
    }
}
