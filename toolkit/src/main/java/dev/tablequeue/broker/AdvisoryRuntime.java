package dev.tablequeue.broker;

/**
 * The advisory form: a claim takes each row's key on a connection that holds it while the row's handler runs
 * ({@link AdvisoryClaimer}), and the outcome is written and the key released on that connection
 * ({@link KeyCompleter}), where a settlement may also take its worker's next row ({@link SettlementWalk}).
 */
final class AdvisoryRuntime implements FormRuntime {
    private final SubscriptionContext ctx;
    private final Settlement settlement;
    private final AdvisoryKeys keys;
    private KeyCompleter completer;

    AdvisoryRuntime(SubscriptionContext ctx, Settlement settlement, AdvisoryKeys keys) {
        this.ctx = ctx;
        this.settlement = settlement;
        this.keys = keys;
    }

    @Override
    public Claimer claimer() {
        return new AdvisoryClaimer(ctx, new ClaimSteps(ctx), keys);
    }

    @Override
    public Completer completer(Slots slots, Wakeup wakeup, String name) {
        completer = new KeyCompleter(ctx, settlement, keys, slots, name, FormRuntime.writers(ctx));
        return FormRuntime.inline(ctx, completer, slots, wakeup);
    }

    @Override
    public boolean claimsForSeveral() {
        return !FormRuntime.oneRowPerClaim(ctx) && !FormRuntime.claimThreadWrites(ctx);
    }

    /** None: a row's key is held until its handler returns, so a row taken ahead would hold one unhandled. */
    @Override
    public int claimAhead(Mount<?> mount) {
        return 0;
    }

    /**
     * A settlement walks on to its worker's next row ({@link SettlementWalk.Gate}) where the settle threads
     * write the outcomes, for single deliveries (not {@code batch(n)}, whose claim fills a batch), outside a
     * transactional subscription (whose deliveries each open a transaction) and outside in-process mode
     * (whose claims run where the service calls). The statements decide the rest
     * ({@link dev.tablequeue.dialect.SubscriptionStatements#walking()}).
     */
    @Override
    public void loopBegun(ClaimLoop<?> loop, Mount<?> mount) {
        if (!FormRuntime.claimThreadWrites(ctx) && mount.batch == 0 && !ctx.transactional && !ctx.broker.inProcess) {
            completer.walkOn(loop.settlementClaims());
        }
    }
}
