package dev.tablequeue.broker;

import dev.tablequeue.dialect.QueueKeys;
import dev.tablequeue.dialect.Statement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The advisory settlement that is also its worker's next claim: one statement writes the outcome, releases
 * the settled row's key and walks the claim order to the next row whose key it can lock, and takes it
 * ({@link dev.tablequeue.dialect.QueueDialect#advisorySettleAndWalk}). The row taken goes into work on the
 * same connection, which holds its key. After a walk that gave up behind rows of keys held elsewhere, the
 * next settlements write without walking on, and the claim thread's candidates find the free rows.
 */
final class SettlementWalk {
    private final SubscriptionContext ctx;
    private final SettlementReports reports;
    private final ClaimSteps steps;
    /**
     * The settlements still to write without walking on, after a walk gave up behind rows of keys held
     * elsewhere: where such rows fill the head of the queue, each walk would try as many before giving up, and
     * the claim thread's candidates, which leave out held keys in one scan, find the free rows behind them.
     */
    private final AtomicInteger walksSkipped = new AtomicInteger();
    /** How many settlements after a walk that gave up write without walking on. */
    static final int SKIPPED_AFTER_A_CUT = 64;

    /**
     * The subscription's side of a settlement that claims: whether it claims now, and where a row so taken
     * goes into work.
     */
    interface Gate {
        /**
         * Whether the subscription claims now (running, not paused); where it does, pause and stop wait
         * until {@link #leave()}, so nothing is claimed once they return.
         */
        boolean enter();

        /** Ends what {@link #enter()} began. */
        void leave();

        /** Puts {@code next} into work on its worker (which it already holds), after a claim of {@code took}. */
        void start(AdvisoryDelivery next, Duration took);

        /** Reports a settlement's walk that took nothing. */
        void foundNothing(Duration took);
    }

    SettlementWalk(SubscriptionContext ctx, SettlementReports reports) {
        this.ctx = ctx;
        this.reports = reports;
        this.steps = new ClaimSteps(ctx);
    }

    /** What a walk came to: the row it took (null where none), and how long it took. */
    record Walked(AdvisoryDelivery next, Duration took) {}

    /** Whether this settlement writes without walking on, as one of those after a walk that gave up. */
    boolean skips() {
        return walksSkipped.get() > 0 && walksSkipped.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    /**
     * The keys the subscription's deliveries in work hold but {@code d}'s: a walk from {@code d}'s settlement
     * passes over their rows, whose keys other sessions of this process hold (where {@code d}'s own key is
     * among them, the walk may take its rows: its session holds it).
     */
    private List<String> heldBeside(AdvisoryDelivery d) {
        List<String> held = new ArrayList<>();
        for (InWork other : ctx.inWork) {
            String key = ((AdvisoryDelivery) other).key;
            if (other != d && !key.equals(d.key)) {
                held.add(key);
            }
        }
        return held;
    }

    /**
     * Runs {@code walking} for {@code w}: the outcome, its key's release and the walk to the next row. The row
     * it took goes into work on the same connection, unless the release was not confirmed: the connection
     * then ends its session, which frees the taken row's key too, and the row goes back to the queue.
     */
    Walked writeAndWalk(AdvisoryDelivery d, Settlement.Write w, Statement walking) throws SQLException {
        long began = System.nanoTime();
        QueueKeys.SettledWalk<ClaimedRow> r;
        try {
            r = steps.settleAndWalk(d.connection, walking, w.plan().binds().copy().heldKeys(heldBeside(d)),
                    d.key);
        } catch (SQLException e) {
            throw reports.statementFailed(List.of(w), walking.purpose(), walking.sql(), e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        d.evicted = !r.unlocked();
        // a row taken on a session that did not hold the settled key goes back as the session ends
        if (!r.walked().took() || d.evicted) {
            if (r.walked().cut()) {
                walksSkipped.set(SKIPPED_AFTER_A_CUT);
            }
            return new Walked(null, took);
        }
        return new Walked(new AdvisoryDelivery(ctx, r.walked().row(), d.connection, r.walked().key()), took);
    }
}
