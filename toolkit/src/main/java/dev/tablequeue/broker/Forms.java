package dev.tablequeue.broker;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.dialect.QueueDialect;

/**
 * Picks a subscription's {@link Claimer} and {@link Completer} by its table's form, and by whether its
 * database takes writers side by side: the one place the runtime asks either.
 */
final class Forms {
    /** The threads that write a lease or advisory subscription's outcomes at once. */
    private static final int SETTLERS = 2;

    private Forms() {}

    static Claimer claimer(SubscriptionContext ctx, Settlement settlement, AdvisoryKeys keys) {
        return switch (ctx.binding.form()) {
            case ROW_LOCK -> new RowLockClaimer(ctx);
            case LEASE -> new LeaseClaimer(ctx, settlement.reports);
            case ADVISORY -> new AdvisoryClaimer(ctx, new ClaimSteps(ctx), keys);
        };
    }

    /**
     * The completer of the form; where the database takes one writer at a time, its writes run on the claim
     * thread ({@link InlineCompleter}). Such a database has no row locks: its row lock form is refused when
     * the subscription opens.
     */
    static Completer completer(SubscriptionContext ctx, Settlement settlement, AdvisoryKeys keys, Slots slots,
            Wakeup wakeup, String name) {
        boolean inline = claimThreadWrites(ctx);
        int writers = inline ? 0 : SETTLERS;
        return switch (ctx.binding.form()) {
            case ROW_LOCK -> new ClaimCompleter(ctx, settlement, slots, name);
            case LEASE -> inline(new LeaseCompleter(ctx, settlement, slots, name, writers), inline, slots, wakeup);
            case ADVISORY -> inline(new KeyCompleter(ctx, settlement, keys, slots, name, writers), inline, slots,
                    wakeup);
        };
    }

    /**
     * Whether a claim takes rows for several workers at once and the claim thread leaves the outcomes to the
     * settle threads: not where it takes one row (a FIFO group, the service's own claim, a transactional row
     * lock claim), nor where the claim thread writes the outcomes itself. Such a claim waits, while rows are in
     * work, for more workers to free ({@link Slots}); the claim thread that writes the outcomes could not.
     */
    static boolean claimsForSeveral(SubscriptionContext ctx) {
        boolean oneRow = ctx.binding.fifo() || ctx.binding.owns(Event.CLAIM)
                || (ctx.transactional && ctx.binding.form() == Form.ROW_LOCK);
        return !oneRow && !claimThreadWrites(ctx);
    }

    /**
     * The rows a claim of the subscription may take beyond its free workers while its handlers take less time
     * than its claims ({@link Slots}): as many as it has workers, where its claims take rows for several
     * workers at once and leave the outcomes to the settle threads; none in the advisory form, where a row's
     * key is held until its handler returns, in a transactional subscription, whose deliveries each open a
     * transaction, for batch handlers, which take a batch per claim already, and in in-process mode.
     */
    static int claimAhead(SubscriptionContext ctx, Mount<?> mount) {
        boolean allowed = !ctx.broker.inProcess && mount.batch == 0
                && !ctx.transactional && ctx.binding.form() != Form.ADVISORY && claimsForSeveral(ctx);
        return allowed ? mount.workers : 0;
    }

    /**
     * Whether a settlement walks on to its worker's next row ({@link SettlementWalk.Gate}): in the advisory
     * form, where the settle threads write the outcomes, for single deliveries (not {@code batch(n)}, whose
     * claim fills a batch), outside a transactional subscription (whose deliveries each open a transaction)
     * and outside in-process mode (whose claims run where the service calls). The statements decide the rest
     * ({@link dev.tablequeue.dialect.SubscriptionStatements#walking()}).
     */
    static boolean settlementsWalkOn(SubscriptionContext ctx, Mount<?> mount) {
        return ctx.binding.form() == Form.ADVISORY && !claimThreadWrites(ctx) && mount.batch == 0
                && !ctx.transactional && !ctx.broker.inProcess;
    }

    /**
     * Whether the claim thread writes the outcomes itself: where the database takes one writer at a time. A
     * transactional delivery's transaction holds SQLite's write lock until it settles, so its outcome is
     * written on a thread of its own, never on the claim thread, which may be waiting for that lock.
     */
    private static boolean claimThreadWrites(SubscriptionContext ctx) {
        return !ctx.dialect.claimsInParallel() && !ctx.transactional;
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

    /**
     * What {@code delivery.db()} is: the broker's context, where a row lock subscription's statement on its own
     * table waits a bounded time for a row lock, since the row may be the delivery's own ({@link OwnRowWait}).
     */
    static org.jooq.DSLContext handlerDb(SubscriptionContext ctx) {
        return ctx.binding.form() == Form.ROW_LOCK
                ? OwnRowWait.of(ctx, ctx.broker.ownRowWait) : ctx.broker.db;
    }

    private static Completer inline(InlineCompleter.Queued completer, boolean inline, Slots slots, Wakeup wakeup) {
        return inline ? new InlineCompleter(completer, slots, wakeup) : completer;
    }
}
