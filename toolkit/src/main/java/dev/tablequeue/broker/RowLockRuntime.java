package dev.tablequeue.broker;

/**
 * The row lock form: a claim's transaction holds its rows while their handlers run ({@link RowLockClaimer})
 * and commits once all of them are settled ({@link ClaimCompleter}). Such a database takes writers side by
 * side: a database of one writer at a time has no row locks, and its row lock form is refused at the open.
 */
final class RowLockRuntime implements FormRuntime {
    private final SubscriptionContext ctx;
    private final Settlement settlement;

    RowLockRuntime(SubscriptionContext ctx, Settlement settlement) {
        this.ctx = ctx;
        this.settlement = settlement;
    }

    @Override
    public Claimer claimer() {
        return new RowLockClaimer(ctx);
    }

    @Override
    public Completer completer(Slots slots, Wakeup wakeup, String name) {
        return new ClaimCompleter(ctx, settlement, slots, name);
    }

    /** Not where a transactional subscription claims, one row a transaction. */
    @Override
    public boolean claimsForSeveral() {
        return !FormRuntime.oneRowPerClaim(ctx) && !ctx.transactional && !FormRuntime.claimThreadWrites(ctx);
    }

    @Override
    public int claimAhead(Mount<?> mount) {
        return FormRuntime.mayClaimAhead(ctx, mount) && claimsForSeveral() ? mount.workers : 0;
    }
}
