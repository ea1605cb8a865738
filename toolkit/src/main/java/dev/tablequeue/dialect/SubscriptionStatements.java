package dev.tablequeue.dialect;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jooq.Table;

/**
 * Every statement one subscription runs, built once when it opens and prepared on the server then. The broker
 * builds its subscriptions' statements here, and the build-time check ({@code tablequeue:check}) prepares the
 * same ones through {@link BindingStatements}, so the two cannot render a statement differently. (The advisory
 * form's key locks are the database's, not the subscription's: {@link QueueDialect#keyLocks}.)
 *
 * @param claims the row lock or the lease claim as its dialect runs it (null in the advisory form)
 * @param keys the advisory claim as its dialect runs it (null in the other forms)
 * @param settlements what the outcomes write, with the dead letters the subscription declares
 * @param unlocking advisory: each outcome written in one statement (ack, drop, retry, retry after, dead letter
 *     to a group) mapped to that outcome and its key's release in one statement, where the dialect offers them
 *     and the keys are the dialect's; empty otherwise
 * @param walking advisory: each outcome of {@code unlocking} mapped to that outcome, its key's release and the
 *     walk to the next row in one statement, where the dialect offers them and there is a walk; empty
 *     otherwise
 */
public record SubscriptionStatements(
        QueueClaims claims,
        QueueKeys keys,
        QueueSettlements settlements,
        TransactionOpening opening,
        Map<QueueSettlements.Kind, Statement> unlocking,
        Map<QueueSettlements.Kind, Statement> walking) {

    /** Builds the statements of {@code binding} in {@code shape}, with the dead letter the mount declares. */
    public static SubscriptionStatements build(QueueDialect dialect, RoleBinding<?> binding, ClaimShape shape,
            boolean deadLetterToGroup, Table<?> deadLetterTable) {
        return build(dialect, binding, shape, deadLetterToGroup, deadLetterTable, false);
    }

    /**
     * As {@link #build(QueueDialect, RoleBinding, ClaimShape, boolean, Table)}; where {@code inKeyOrder}, the
     * claim (or the advisory candidates) is built over {@link RoleBinding#inKeyOrder()}, for
     * {@code workersByKey(n)}. The advisory take keeps the plain condition: a row that was the first of its key
     * when the candidates were read stays so until it is finished.
     */
    public static SubscriptionStatements build(QueueDialect dialect, RoleBinding<?> binding, ClaimShape shape,
            boolean deadLetterToGroup, Table<?> deadLetterTable, boolean inKeyOrder) {
        Form form = binding.form();
        RoleBinding<?> claimed = inKeyOrder ? binding.inKeyOrder() : binding;
        boolean advisory = form == Form.ADVISORY;
        QueueClaims claims = advisory ? null : dialect.claims(binding, shape, inKeyOrder);
        QueueKeys keys = advisory ? dialect.keys(binding, shape, inKeyOrder) : null;
        QueueSettlements settlements = dialect.settlements(binding, deadLetterToGroup, deadLetterTable);
        // the one-statement forms take and release the dialect's own locks: not where the service locks
        boolean dialectKeys = advisory && !binding.owns(dev.tablequeue.binding.Event.LOCK)
                && !binding.owns(dev.tablequeue.binding.Event.UNLOCK);
        Map<QueueSettlements.Kind, Statement> unlocking = new EnumMap<>(QueueSettlements.Kind.class);
        Map<QueueSettlements.Kind, Statement> walking = new EnumMap<>(QueueSettlements.Kind.class);
        if (dialectKeys) {
            // a kind of one statement settles and releases its key in one (a dead letter into a table is two)
            for (QueueSettlements.Kind kind : settlements.kinds()) {
                List<Statement> run = settlements.statements(kind);
                if (run.size() != 1) {
                    continue;
                }
                Statement outcome = run.get(0);
                dialect.advisorySettleAndUnlock(binding, outcome).ifPresent(s -> unlocking.put(kind, s));
                if (unlocking.containsKey(kind) && keys.walks()) {
                    dialect.advisorySettleAndWalk(claimed, outcome, shape).ifPresent(s -> walking.put(kind, s));
                }
            }
        }
        return new SubscriptionStatements(
                claims,
                keys,
                settlements,
                dialect.transactionOpening(binding),
                java.util.Collections.unmodifiableMap(unlocking),
                java.util.Collections.unmodifiableMap(walking));
    }

    /** Every statement, in the order they are prepared. */
    public List<Statement> all() {
        List<Statement> all = new ArrayList<>();
        all.addAll(claims != null ? claims.statements() : keys.statements());
        all.addAll(settlements.statements());
        all.addAll(unlocking.values());
        all.addAll(walking.values());
        return all;
    }
}
