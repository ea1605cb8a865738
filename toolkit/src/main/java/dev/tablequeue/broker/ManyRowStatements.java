package dev.tablequeue.broker;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * The many-row forms of a subscription's settlement statements ({@link QueueDialect#ackByIds} and the
 * others), each built by the dialect the first time a batch needs it for a count and kept: at most one per
 * statement and power of two up to {@link SettlementGroups#MAX_IDS}.
 */
final class ManyRowStatements {
    private final QueueDialect dialect;
    private final Map<Statement, IntFunction<Optional<Statement>>> builders = new IdentityHashMap<>();
    /** By statement (by identity: the planner's statements are these), then count; read-only once built. */
    private final Map<Statement, Map<Integer, Optional<Statement>>> built = new IdentityHashMap<>();

    ManyRowStatements(QueueDialect dialect, RoleBinding<?> binding, SubscriptionStatements statements) {
        this.dialect = dialect;
        builders.put(statements.ack(), count -> dialect.ackByIds(binding, count));
        builders.put(statements.drop(), count -> dialect.dropByIds(binding, count));
        statements.retry().ifPresent(s -> builders.put(s, count -> dialect.retryByIds(binding, count)));
        statements.retryAfter().ifPresent(s -> builders.put(s, count -> dialect.retryAfterByIds(binding, count)));
        statements.deadLetterToGroup()
                .ifPresent(s -> builders.put(s, count -> dialect.deadLetterToGroupByIds(binding, count)));
        builders.keySet().forEach(s -> built.put(s, new ConcurrentHashMap<>()));
    }

    /** Gives the two-row form of each statement to {@code to}: what the start prepares ({@link StartRules}). */
    void forEachTwoRowForm(java.util.function.Consumer<Statement> to) {
        for (Statement single : builders.keySet()) {
            of(single, 2).ifPresent(to);
        }
    }

    /** Whether the dialect may write {@code single} over many ids. */
    boolean has(Statement single) {
        return builders.containsKey(single) && of(single, 2).isPresent();
    }

    /**
     * {@code single} over {@code count} ids, where the dialect writes it so: a statement that binds anything
     * but {@code count} ids in its IN list is not taken, and its rows are written one by one.
     */
    Optional<Statement> of(Statement single, int count) {
        IntFunction<Optional<Statement>> builder = builders.get(single);
        if (builder == null) {
            return Optional.empty();
        }
        return built.get(single).computeIfAbsent(count, n -> builder.apply(n).filter(s -> bindsIds(s, n)));
    }

    private static boolean bindsIds(Statement s, int count) {
        boolean[] seen = new boolean[count];
        for (Param p : s.params()) {
            if (p.kind() == Param.Kind.ID) {
                if (p.index() < 0 || p.index() >= count) {
                    return false;
                }
                seen[p.index()] = true;
            }
        }
        for (boolean b : seen) {
            if (!b) {
                return false;
            }
        }
        return true;
    }
}
