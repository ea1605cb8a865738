package dev.tablequeue.broker;

/**
 * The lease form: a claim stamps its rows with a lease the keeper extends while their handlers run
 * ({@link LeaseClaimer}), and each outcome is written while the row still holds that lease
 * ({@link LeaseCompleter}).
 */
final class LeaseRuntime implements FormRuntime {
    private final SubscriptionContext ctx;
    private final Settlement settlement;

    LeaseRuntime(SubscriptionContext ctx, Settlement settlement) {
        this.ctx = ctx;
        this.settlement = settlement;
    }

    @Override
    public Claimer claimer() {
        return new LeaseClaimer(ctx, settlement.reports);
    }

    @Override
    public Completer completer(Slots slots, Wakeup wakeup, String name) {
        return FormRuntime.inline(ctx, new LeaseCompleter(ctx, settlement, slots, name, FormRuntime.writers(ctx)),
                slots, wakeup);
    }

    @Override
    public boolean claimsForSeveral() {
        return !FormRuntime.oneRowPerClaim(ctx) && !FormRuntime.claimThreadWrites(ctx);
    }

    @Override
    public int claimAhead(Mount<?> mount) {
        return FormRuntime.mayClaimAhead(ctx, mount) && claimsForSeveral() ? mount.workers : 0;
    }
}
