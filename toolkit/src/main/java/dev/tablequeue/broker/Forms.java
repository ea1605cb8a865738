package dev.tablequeue.broker;

/**
 * Picks a subscription's {@link Claimer} and {@link Completer} by its table's form, and by whether its
 * database takes writers side by side: the one place the runtime asks either.
 */
final class Forms {
    /** The threads that write a subscription's outcomes at once. */
    private static final int SETTLERS = 2;

    private Forms() {}

    static Claimer claimer(SubscriptionContext ctx, Settlement settlement, AdvisoryKeys keys) {
        ClaimSteps steps = new ClaimSteps(ctx);
        return switch (ctx.binding.form()) {
            case ROW_LOCK -> new RowLockClaimer(ctx, steps);
            case LEASE -> new LeaseClaimer(ctx, steps, settlement.reports);
            case ADVISORY -> new AdvisoryClaimer(ctx, steps, keys);
        };
    }

    /**
     * The completer of the form; where the database takes one writer at a time, its writes run on the claim
     * thread ({@link InlineCompleter}). Such a database has no row locks: its row lock form is refused when
     * the subscription opens.
     */
    static Completer completer(SubscriptionContext ctx, Settlement settlement, AdvisoryKeys keys, Slots slots,
            Wakeup wakeup, String name) {
        // a transactional delivery's transaction holds SQLite's write lock until it settles: its outcome is
        // written on a thread of its own, never on the claim thread, which may be waiting for that lock
        boolean inline = !ctx.dialect.claimsInParallel() && !ctx.transactional;
        int writers = inline ? 0 : SETTLERS;
        return switch (ctx.binding.form()) {
            case ROW_LOCK -> new ClaimCompleter(ctx, settlement, slots, name, SETTLERS);
            case LEASE -> inline(new LeaseCompleter(ctx, settlement, slots, name, writers), inline, slots, wakeup);
            case ADVISORY -> inline(new KeyCompleter(ctx, settlement, keys, slots, name, writers), inline, slots,
                    wakeup);
        };
    }

    /**
     * What {@code delivery.db()} is: the broker's context, where a row lock subscription's statement on its own
     * table waits a bounded time for a row lock, since the row may be the delivery's own ({@link OwnRowWait}).
     */
    static org.jooq.DSLContext handlerDb(SubscriptionContext ctx) {
        return ctx.binding.form() == dev.tablequeue.binding.Form.ROW_LOCK
                ? OwnRowWait.of(ctx, ctx.broker.ownRowWait) : ctx.broker.db;
    }

    private static Completer inline(InlineCompleter.Queued completer, boolean inline, Slots slots, Wakeup wakeup) {
        return inline ? new InlineCompleter(completer, slots, wakeup) : completer;
    }
}
