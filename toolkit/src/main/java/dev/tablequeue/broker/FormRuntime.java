package dev.tablequeue.broker;

import dev.tablequeue.binding.Event;
import dev.tablequeue.dialect.KeyLocks;
import dev.tablequeue.dialect.QueueDialect;
import org.jooq.DSLContext;

/**
 * What a subscription runs in its table's form: the claims that take its rows, the completer that writes
 * their outcomes, and how a claim fills its workers. One per form, each with its deliveries and their
 * transactions: {@link RowLockRuntime} ({@link RowLockDelivery}), {@link LeaseRuntime}
 * ({@link LeaseDelivery}), {@link AdvisoryRuntime} ({@link AdvisoryDelivery}). {@link #of} and
 * {@link #handlerDb} are the places the runtime asks a table's form.
 */
sealed interface FormRuntime permits RowLockRuntime, LeaseRuntime, AdvisoryRuntime {
    /** The threads that write a lease or advisory subscription's outcomes at once. */
    int SETTLERS = 2;

    /** The runtime of {@code ctx}'s form; {@code locks} are the dialect's locks of the table's keys, if any. */
    static FormRuntime of(SubscriptionContext ctx, Settlement settlement, KeyLocks locks) {
        return switch (ctx.binding.form()) {
            case ROW_LOCK -> new RowLockRuntime(ctx, settlement);
            case LEASE -> new LeaseRuntime(ctx, settlement);
            case ADVISORY -> new AdvisoryRuntime(ctx, settlement, new AdvisoryKeys(ctx, locks));
        };
    }

    /**
     * What {@code delivery.db()} is: the broker's context, where a row lock subscription's statement on its own
     * table waits a bounded time for a row lock, since the row may be the delivery's own ({@link OwnRowWait}).
     */
    static DSLContext handlerDb(SubscriptionContext ctx) {
        return switch (ctx.binding.form()) {
            case ROW_LOCK -> OwnRowWait.of(ctx, ctx.broker.ownRowWait);
            case LEASE, ADVISORY -> ctx.broker.db;
        };
    }

    /** The claims that take the subscription's rows. */
    Claimer claimer();

    /** The completer that writes the outcomes, on threads named after {@code name}. */
    Completer completer(Slots slots, Wakeup wakeup, String name);

    /**
     * Whether a claim takes rows for several workers at once and the claim thread leaves the outcomes to the
     * settle threads. Such a claim waits, while rows are in work, for more workers to free ({@link Slots}); a
     * claim thread that writes the outcomes itself could not.
     */
    boolean claimsForSeveral();

    /**
     * The rows a claim may take beyond its free workers while its handlers take less time than its claims
     * ({@link Slots}): none for batch handlers, which take a batch per claim already, in a transactional
     * subscription, whose deliveries each open a transaction, and in in-process mode.
     */
    int claimAhead(Mount<?> mount);

    /** The subscription's claim loop has begun: what the form's settlements take from it. */
    default void loopBegun(ClaimLoop<?> loop, Mount<?> mount) {}

    /**
     * Whether the claim thread writes the outcomes itself: where the database takes one writer at a time. A
     * transactional delivery's transaction holds SQLite's write lock until it settles, so its outcome is
     * written on a thread of its own, never on the claim thread, which may be waiting for that lock.
     */
    static boolean claimThreadWrites(SubscriptionContext ctx) {
        return !ctx.dialect.claimsInParallel() && !ctx.transactional;
    }

    /** Whether each claim takes one row: a FIFO group's, or the service's own claim. */
    static boolean oneRowPerClaim(SubscriptionContext ctx) {
        return ctx.binding.fifo() || ctx.binding.owns(Event.CLAIM);
    }

    /** Whether a claim may take rows ahead of its free workers, where its form lets it at all. */
    static boolean mayClaimAhead(SubscriptionContext ctx, Mount<?> mount) {
        return !ctx.broker.inProcess && mount.batch == 0 && !ctx.transactional;
    }

    /** {@code completer}, or, where the claim thread writes the outcomes, that completer on the claim thread. */
    static Completer inline(SubscriptionContext ctx, InlineCompleter.Queued completer, Slots slots, Wakeup wakeup) {
        return claimThreadWrites(ctx) ? new InlineCompleter(completer, slots, wakeup) : completer;
    }

    /** The settle threads of a lease or advisory completer: none where the claim thread writes the outcomes. */
    static int writers(SubscriptionContext ctx) {
        return claimThreadWrites(ctx) ? 0 : SETTLERS;
    }

    /**
     * The platform threads a subscription's handlers run on, 0 for a virtual thread each: those it declares
     * ({@link Mount#onThreads}), else, where the database takes one writer at a time (SQLite) and each delivery
     * opens a transaction of its own, one per worker. Such a transaction opens on its handler's thread and waits
     * for the write lock inside the driver's native code, where a virtual thread keeps its carrier: once as many
     * openings wait as there are carriers (the processors), a handler that holds the lock and let its carrier go
     * (it waited for a lock of the runtime, or for a connection) gets none back to commit on, and each opening
     * waits out the busy timeout and fails.
     */
    static int handlerThreads(QueueDialect dialect, Mount<?> mount) {
        if (mount.threads > 0) {
            return mount.threads;
        }
        return mount.transactional && !dialect.claimsInParallel() ? mount.workers : 0;
    }
}
