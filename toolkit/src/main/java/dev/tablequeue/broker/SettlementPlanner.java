package dev.tablequeue.broker;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.QueueSettlements;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pure part of a settlement: which outcome a handler's answer becomes (a retry whose attempts are spent
 * is a dead letter, a dead letter without a destination is a drop, a delay on a table that cannot hide its
 * row is a retry), which statements write it (or the service's own event), and what they bind. It touches
 * no database, so every rule is tested without one; the completers run what it plans.
 */
final class SettlementPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(SettlementPlanner.class);

    /** What an outcome does to its row. */
    enum Kind {
        ACK,
        DROP,
        RETRY,
        RETRY_AFTER,
        DEAD_LETTER
    }

    /**
     * An outcome resolved to what it writes: the service's own event ({@code own}, with no statements), or
     * the table's settlement {@code writes} ({@code run}: its statements in order, each bound with {@code binds}).
     *
     * @param delay the delay of a retry after, else null
     * @param writes the settlement written, null where the service's own event writes it
     */
    record Plan(Kind kind, Duration delay, Event own, Binds binds, List<Statement> run, QueueSettlements.Kind writes) {
        /** The outcome as the table's settlements write it. */
        QueueSettlements.Outcome outcome() {
            return new QueueSettlements.Outcome(writes, binds);
        }

        /** Whether it writes more than one statement (or the service's event), so in a transaction of its own. */
        boolean needsTransaction() {
            return own != null || run.size() > 1;
        }
    }

    private final RoleBinding<?> binding;
    private final SubscriptionStatements statements;
    private final int maxAttempts;
    private final String deadLetterGroup;
    private final Table<?> deadLetterTable;
    private final String group;
    private final Object queue;
    private final AtomicBoolean warnedRetryAfter = new AtomicBoolean();

    /**
     * @param maxAttempts the cap on deliveries, 0 for none
     * @param deadLetterGroup the group a dead letter moves to, or null
     * @param deadLetterTable the table a dead letter moves to, or null
     * @param group the group the subscription reads (null for every group)
     * @param queue the subscription's queue, for messages
     */
    SettlementPlanner(RoleBinding<?> binding, SubscriptionStatements statements, int maxAttempts,
            String deadLetterGroup, Table<?> deadLetterTable, String group, Object queue) {
        this.binding = binding;
        this.statements = statements;
        this.maxAttempts = maxAttempts;
        this.deadLetterGroup = deadLetterGroup;
        this.deadLetterTable = deadLetterTable;
        this.group = group;
        this.queue = queue;
    }

    /**
     * Plans {@code outcome} for the row {@code id}, delivered at {@code attempt}, holding the lease
     * {@code leaseHeld} (or null), settled at {@code now}; {@code failure} is what a failure policy settled,
     * written as the last error where the table keeps one.
     */
    Plan plan(Outcome outcome, Object id, OptionalInt attempt, Instant leaseHeld, Throwable failure, Instant now) {
        Kind kind = kind(outcome, attempt);
        Duration delay = kind == Kind.RETRY_AFTER ? ((Outcome.RetryAfter) outcome).delay() : null;
        Binds binds = new Binds().id(id).now(now).leaseHeld(leaseHeld).group(group);
        if (delay != null) {
            binds.delay(delay).retryAt(now.plus(delay));
        }
        if (kind == Kind.DEAD_LETTER && deadLetterGroup != null) {
            binds.destination(deadLetterGroup);
        }
        if (failure != null && binding.has(Role.LAST_ERROR)) {
            binds.lastError(LastError.of(failure, binding.lastErrorLength()));
        }
        Event event = switch (kind) {
            case ACK -> Event.ACK;
            case DROP -> Event.DROP;
            case RETRY -> Event.RETRY;
            case RETRY_AFTER -> Event.RETRY_AFTER;
            case DEAD_LETTER -> Event.DEAD_LETTER;
        };
        if (binding.owns(event)) {
            return new Plan(kind, delay, event, binds, List.of(), null);
        }
        QueueSettlements.Kind writes = switch (kind) {
            case ACK -> QueueSettlements.Kind.ACK;
            case DROP -> QueueSettlements.Kind.DROP;
            case RETRY -> QueueSettlements.Kind.RETRY;
            case RETRY_AFTER -> QueueSettlements.Kind.RETRY_AFTER;
            case DEAD_LETTER -> deadLetterGroup != null ? QueueSettlements.Kind.DEAD_LETTER_TO_GROUP
                    : QueueSettlements.Kind.DEAD_LETTER_TO_TABLE;
        };
        return new Plan(kind, delay, null, binds, statements.settlements().statements(writes), writes);
    }

    private Kind kind(Outcome outcome, OptionalInt attempt) {
        return switch (outcome) {
            case Outcome.Ack a -> Kind.ACK;
            case Outcome.Drop drop -> Kind.DROP;
            case Outcome.DeadLetter dead -> deadLetterDeclared() ? Kind.DEAD_LETTER : Kind.DROP;
            case Outcome.Retry r -> spent(attempt) ? Kind.DEAD_LETTER : Kind.RETRY;
            case Outcome.RetryAfter r -> {
                if (spent(attempt)) {
                    yield Kind.DEAD_LETTER;
                }
                if (!hidesRows()) {
                    if (warnedRetryAfter.compareAndSet(false, true)) {
                        LOG.warn("table \"{}\" has no retryAfter column: retryAfter({}) outcomes of {} return the"
                                + " row at once", binding.tableName(), r.delay(), queue);
                    }
                    yield Kind.RETRY;
                }
                yield Kind.RETRY_AFTER;
            }
        };
    }

    /** Whether a retry after a delay can hide its row: a retryAfter column, or the service's own event. */
    boolean hidesRows() {
        return binding.has(Role.RETRY_AFTER) || binding.owns(Event.RETRY_AFTER);
    }

    /** Whether a delivery at {@code attempt} was the last one {@code maxAttempts} allows. */
    boolean spent(OptionalInt attempt) {
        return maxAttempts > 0 && attempt.isPresent() && attempt.getAsInt() >= maxAttempts;
    }

    private boolean deadLetterDeclared() {
        return deadLetterGroup != null || deadLetterTable != null;
    }

    /** Where a dead letter goes: the group or the table's name (declared, else null). */
    String destination() {
        return deadLetterGroup != null ? deadLetterGroup : deadLetterTable != null ? deadLetterTable.getName() : null;
    }

    /** What {@code outcome} does to a row delivered at {@code attempt}, as a log line says it: "is dropped (deleted)", say. */
    String fate(OptionalInt attempt, Outcome outcome) {
        String dropped = binding.has(Role.PROCESSED_AT) ? "is dropped (marked processed)" : "is dropped (deleted)";
        String moved = "moves to the dead letter \"" + (deadLetterDeclared() ? destination() : "") + "\"";
        return switch (outcome) {
            case Outcome.Ack a -> "is acknowledged";
            case Outcome.Drop drop -> dropped;
            case Outcome.DeadLetter dead -> deadLetterDeclared() ? moved : dropped + ": no dead letter is declared";
            case Outcome.Retry r -> spent(attempt) ? moved + ": its attempts are spent" : "is retried";
            case Outcome.RetryAfter r -> spent(attempt) ? moved + ": its attempts are spent"
                    : "is retried after " + r.delay();
        };
    }

    /** An outcome as a message names it: "acknowledgement", "retry after PT5S". */
    static String describe(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Ack a -> "acknowledgement";
            case Outcome.Drop d -> "drop";
            case Outcome.DeadLetter d -> "dead letter";
            case Outcome.Retry r -> "retry";
            case Outcome.RetryAfter r -> "retry after " + r.delay();
        };
    }
}
