package dev.tablequeue.broker;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The many-row forms of a subscription's settlement statements ({@link QueueDialect#ackMany} and the others),
 * built once when the subscription opens: each writes its outcome to any number of rows, their values bound
 * as data, with one text.
 */
final class ManyRowStatements {
    /** By the one-row statement (by identity: the planner's statements are these); read-only once built. */
    private final Map<Statement, Statement> many = new IdentityHashMap<>();

    ManyRowStatements(QueueDialect dialect, RoleBinding<?> binding, SubscriptionStatements statements) {
        put(statements.ack(), dialect.ackMany(binding));
        put(statements.drop(), dialect.dropMany(binding));
        statements.retry().ifPresent(s -> put(s, dialect.retryMany(binding)));
        statements.retryAfter().ifPresent(s -> put(s, dialect.retryAfterMany(binding)));
        statements.deadLetterToGroup().ifPresent(s -> put(s, dialect.deadLetterToGroupMany(binding)));
    }

    private void put(Statement single, Optional<Statement> form) {
        form.ifPresent(f -> many.put(single, f));
    }

    /** Gives each many-row statement to {@code to}: what the start prepares ({@link StartRules}). */
    void forEach(Consumer<Statement> to) {
        many.values().forEach(to);
    }

    /** {@code single} over many rows, or null where the dialect writes its rows one execution each. */
    Statement of(Statement single) {
        return many.get(single);
    }
}
