package dev.tablequeue.dialect;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Table;

/**
 * Every statement one subscription runs, built once when it opens and prepared on the server then. The broker
 * builds its subscriptions' statements here, and the build-time check ({@code tablequeue:check}) prepares the
 * same ones through {@link BindingStatements}, so the two cannot render a statement differently. (The advisory
 * form's key locks are the database's, not the subscription's: {@link QueueDialect#keyLocks}.)
 *
 * @param claims the row lock or the lease claim as its dialect runs it (null in the advisory form)
 * @param keys the advisory claim as its dialect runs it (null in the other forms)
 * @param unlocking advisory: each one-statement outcome (ack, drop, retry, retry after, dead letter to a
 *     group) mapped to that outcome and its key's release in one statement, where the dialect offers them
 *     and the keys are the dialect's; empty otherwise
 * @param walking advisory: each outcome of {@code unlocking} mapped to that outcome, its key's release and the
 *     walk to the next row in one statement, where the dialect offers them and there is a walk; empty
 *     otherwise
 */
public record SubscriptionStatements(
        QueueClaims claims,
        QueueKeys keys,
        Statement ack,
        Statement drop,
        Optional<Statement> retry,
        Optional<Statement> retryAfter,
        Optional<Statement> deadLetterToGroup,
        List<Statement> deadLetterToTable,
        TransactionOpening opening,
        Map<Statement, Statement> unlocking,
        Map<Statement, Statement> walking) {

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
        // the one-statement forms take and release the dialect's own locks: not where the service locks
        boolean dialectKeys = advisory && !binding.owns(dev.tablequeue.binding.Event.LOCK)
                && !binding.owns(dev.tablequeue.binding.Event.UNLOCK);
        Statement ack = dialect.ack(binding);
        Statement drop = dialect.drop(binding);
        Optional<Statement> retry = dialect.retry(binding);
        Optional<Statement> retryAfter = binding.has(Role.RETRY_AFTER)
                ? Optional.of(dialect.retryAfter(binding)) : Optional.empty();
        Optional<Statement> toGroup = deadLetterToGroup
                ? Optional.of(dialect.deadLetterToGroup(binding)) : Optional.empty();
        Map<Statement, Statement> unlocking = new LinkedHashMap<>();
        Map<Statement, Statement> walking = new LinkedHashMap<>();
        if (dialectKeys) {
            List<Statement> single = new ArrayList<>(List.of(ack, drop));
            retry.ifPresent(single::add);
            retryAfter.ifPresent(single::add);
            toGroup.ifPresent(single::add);
            for (Statement outcome : single) {
                dialect.advisorySettleAndUnlock(binding, outcome).ifPresent(s -> unlocking.put(outcome, s));
                if (unlocking.containsKey(outcome) && keys.walks()) {
                    dialect.advisorySettleAndWalk(claimed, outcome, shape).ifPresent(s -> walking.put(outcome, s));
                }
            }
        }
        return new SubscriptionStatements(
                claims,
                keys,
                ack,
                drop,
                retry,
                retryAfter,
                toGroup,
                deadLetterTable != null ? dialect.deadLetterToTable(binding, deadLetterTable) : List.of(),
                dialect.transactionOpening(binding),
                java.util.Collections.unmodifiableMap(unlocking),
                java.util.Collections.unmodifiableMap(walking));
    }

    /** Every statement, in the order they are prepared. */
    public List<Statement> all() {
        List<Statement> all = new ArrayList<>();
        all.addAll(claims != null ? claims.statements() : keys.statements());
        all.add(ack);
        all.add(drop);
        retry.ifPresent(all::add);
        retryAfter.ifPresent(all::add);
        deadLetterToGroup.ifPresent(all::add);
        all.addAll(deadLetterToTable);
        all.addAll(unlocking.values());
        all.addAll(walking.values());
        return all;
    }
}
