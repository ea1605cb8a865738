package dev.tablequeue.broker;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * What a subscription's claimer and completer share, fixed when it opens: its broker, queue and binding,
 * the statements built for it, the planner of its outcomes, the deliveries in work, and the write turn.
 */
final class SubscriptionContext {
    final QueueBroker broker;
    final InboxQueue<?> queue;
    final RoleBinding<?> binding;
    final QueueDialect dialect;
    final SubscriptionStatements statements;
    final RowReader reader;
    final SettlementPlanner planner;
    /** The deliveries in work; a settlement removes its own. */
    final Set<InWork> inWork;
    /** The acknowledgements written, by minute ({@link QueueAdmin#acknowledgedByBroker}). */
    final Acknowledgements acknowledged;
    final WriteTurn turn;
    /** Whether each delivery's handler writes through a transaction of its own ({@link Mount#transactional()}). */
    final boolean transactional;
    /** What {@code delivery.db()} gives the subscription's handlers ({@link FormRuntime#handlerDb}). */
    final org.jooq.DSLContext db;
    /** The lease of the subscription's deliveries (lease form). */
    final Duration lease;
    private final Wakeup wakeup;
    private final long pollNanos;

    SubscriptionContext(QueueBroker broker, InboxQueue<?> queue, SubscriptionStatements statements, RowReader reader,
            SettlementPlanner planner, Set<InWork> inWork, Acknowledgements acknowledged, boolean transactional,
            Duration lease, Wakeup wakeup, long pollNanos) {
        this.broker = broker;
        this.queue = queue;
        this.binding = queue.binding();
        this.dialect = broker.dialect;
        this.statements = statements;
        this.reader = reader;
        this.planner = planner;
        this.inWork = inWork;
        this.acknowledged = acknowledged;
        this.transactional = transactional;
        this.turn = WriteTurn.of(dialect);
        this.lease = lease;
        this.db = FormRuntime.handlerDb(this);
        this.wakeup = wakeup;
        this.pollNanos = pollNanos;
    }

    Instant now() {
        return broker.clock.instant();
    }

    /**
     * A row this subscription settled is back in the queue, claimable {@code after} from now: the claim
     * wakes then, where that comes before its next poll (it found nothing when the handler returned, since
     * the outcome was not written yet).
     */
    void returned(Duration after) {
        long nanos = after.toNanos();
        if (nanos <= 0) {
            wakeup.wake();
        } else if (nanos < pollNanos) {
            wakeup.wakeAfter(nanos);
        }
    }
}
