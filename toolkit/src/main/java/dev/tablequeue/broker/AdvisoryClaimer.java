package dev.tablequeue.broker;

import dev.tablequeue.dialect.QueueKeys;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Advisory: for one free worker, where the dialect walks the rows ({@link QueueKeys#walk}), one statement locks the
 * first free key in claim order and takes its row; a walk that reached the last claimable row without locking a key
 * is the whole claim. A claim for several free workers after a claim that found nothing walks first as well, so
 * that an idle subscription costs one walk per poll. Otherwise, for the free workers a walk did not fill, or where
 * the walk gave up after the rows it may try, it reads the candidates once for the free workers, then, in claim
 * order until they are filled, locks a candidate's key on a connection of its own and takes its row: in one
 * statement where the dialect offers one ({@link QueueKeys#lockAndTake}), else a lock and then a take. That
 * connection holds the key until the row's settlement releases it ({@link KeyCompleter}). The candidates run on the
 * first connection, which the first candidate taken keeps; each further one takes a budget permit only where one is
 * free at once, and the claim ends where none is. A candidate whose key is taken or whose row is gone is passed
 * over. (For several free workers the walk, measured side by side or one after another, ran no faster than the
 * candidates: each walk starts at the head of the queue and passes the keys the others hold.)
 *
 * <p>Where the database takes writers side by side, each free worker's connection tries the candidates at
 * the same time as the others (on a virtual thread each, the first on the claim thread), so a claim costs
 * the round trips of one lock and one take rather than of all of them in a row. Where it takes one writer
 * at a time (SQLite), one connection after another tries them on the claim thread.
 */
final class AdvisoryClaimer implements Claimer {
    private static final Logger LOG = LoggerFactory.getLogger(AdvisoryClaimer.class);
    /**
     * How long a claim waits for its further connections' locks and takes before it goes on without one that
     * hangs (a row it then takes starts where a worker is free, or goes back).
     */
    private static final Duration SIDE_WAIT = Duration.ofSeconds(1);
    /** Marks a claim that has gone on without its further connections. */
    private static final int CLAIM_OVER = Integer.MIN_VALUE;

    private final SubscriptionContext ctx;
    private final ClaimSteps steps;
    private final AdvisoryKeys keys;
    /**
     * Whether the last claim found nothing to take (the claim thread's alone): a claim for several workers
     * then walks first, which on an empty queue costs one index probe rather than a read of candidates.
     */
    private boolean foundNothing = true;

    AdvisoryClaimer(SubscriptionContext ctx, ClaimSteps steps, AdvisoryKeys keys) {
        this.ctx = ctx;
        this.steps = steps;
        this.keys = keys;
    }

    @Override
    public void claim(int free, Dispatch dispatch) throws Exception {
        if (!dispatch.permit()) {
            return;
        }
        Connection first = keys.connection();
        if (steps.walks() && (free == 1 || foundNothing)) {
            // for one worker the walk is the whole claim: candidates read first would cost a round trip more;
            // for several, after a claim that found nothing, it finds out cheaply whether there is anything
            QueueKeys.Walked<ClaimedRow> walked = walk(first);
            if (!walked.took() && walked.locked()) {
                // it locked the key of a row settled after the walk began (the key came free as the settlement
                // committed), and its take found the row settled: a second walk reads the table after it
                walked = walk(first);
            }
            if (walked.took()) {
                foundNothing = false;
                dispatch.dispatch(new AdvisoryDelivery(ctx, walked.row(), first, walked.key()));
                if (free == 1 || !ctx.broker.budget.acquire(0)) {
                    return;
                }
                // the further free workers read candidates on a connection of their own
                first = keys.connection();
                free--;
            } else if (!walked.locked() && !walked.cut()) {
                // it reached the last claimable row and every key was held: candidates would find none either
                foundNothing = true;
                keys.returnConnection(first, false);
                return;
            }
        }
        Queue<Placed> untried = new ConcurrentLinkedQueue<>();
        try {
            List<QueueKeys.Candidate> read = candidates(first, free);
            for (int i = 0; i < read.size(); i++) {
                // after a row the walk took, which stands first
                untried.add(new Placed(read.get(i), i + 1));
            }
        } catch (Exception e) {
            keys.returnConnection(first, false);
            throw e;
        }
        foundNothing = untried.isEmpty();
        // in process, each row's handler runs on this thread as it is taken
        if (!ctx.dialect.claimsInParallel() || ctx.broker.inProcess || free == 1 || untried.size() <= 1) {
            claimInTurn(free, dispatch, first, untried);
        } else {
            claimSideBySide(free, dispatch, first, untried);
        }
    }

    /** One connection after another tries the candidates, on the claim thread. */
    private void claimInTurn(int free, Dispatch dispatch, Connection first, Queue<Placed> untried)
            throws Exception {
        Connection c = first;
        int dispatched = 0;
        while (c != null) {
            InWork d = takeOne(c, untried);
            if (d == null) {
                return;
            }
            dispatch.dispatch(d);
            dispatched++;
            c = dispatched < free && !untried.isEmpty() && ctx.broker.budget.acquire(0) ? keys.connection() : null;
        }
    }

    /** Each free worker's connection tries the candidates at once, the further ones on virtual threads. */
    private void claimSideBySide(int free, Dispatch dispatch, Connection first, Queue<Placed> untried)
            throws Exception {
        List<Connection> others = new ArrayList<>();
        try {
            for (int i = 1; i < Math.min(free, untried.size()); i++) {
                if (!ctx.broker.budget.acquire(0)) {
                    break;
                }
                others.add(keys.connection());
            }
        } catch (SQLException | RuntimeException e) {
            others.forEach(c -> keys.returnConnection(c, false));
            keys.returnConnection(first, false);
            throw e;
        }
        // the rows the further connections took into this claim; CLAIM_OVER once it has gone on without them
        AtomicInteger taken = new AtomicInteger();
        ClaimFailures failures = new ClaimFailures(ctx.queue);
        List<Thread> side = new ArrayList<>(others.size());
        for (Connection c : others) {
            side.add(Thread.ofVirtual().name("tablequeue-claim-" + ctx.queue.name()).start(() -> {
                try {
                    InWork d = takeOne(c, untried);
                    if (d != null) {
                        handOver(d, taken, dispatch);
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            }));
        }
        try {
            InWork d = takeOne(first, untried);
            if (d != null) {
                dispatch.dispatch(d);
            }
        } catch (Exception e) {
            failures.add(e);
        } finally {
            awaitSide(side);
            dispatch.counted(taken.getAndSet(CLAIM_OVER));
        }
        Exception failure = failures.end();
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The candidates for {@code free} workers, in claim order: twice as many and one more, for the keys that
     * other claims take meanwhile.
     *
     * <p>Where the process keeps the keys (SQLite), the statement cannot leave out the keys in work: it reads
     * as many rows more as the process holds keys, and the claim drops the rows of held keys and every row
     * but the first of a key. Where that leaves none and the statement read as many rows as it asked for, the
     * rows it read may all belong to held keys, with a row of a free key behind them: it reads again, twice as
     * many, until it finds a row of a free key or reads the last due row. So a key with many due rows in work
     * does not keep the rows of other keys waiting.
     */
    private List<QueueKeys.Candidate> candidates(Connection c, int free) throws SQLException {
        int wanted = 2 * free + 1;
        if (!keys.keptInProcess()) {
            return steps.candidates(c, wanted);
        }
        long limit = wanted + (long) keys.heldInProcess();
        while (true) {
            int asked = (int) Math.min(limit, Integer.MAX_VALUE);
            List<QueueKeys.Candidate> read = steps.candidates(c, asked);
            List<QueueKeys.Candidate> open = new ArrayList<>(Math.min(read.size(), wanted));
            Set<String> seen = new HashSet<>();
            for (QueueKeys.Candidate candidate : read) {
                if (seen.add(candidate.key()) && !keys.held(candidate.key())) {
                    open.add(candidate);
                }
            }
            if (!open.isEmpty() || read.size() < asked || asked == Integer.MAX_VALUE) {
                return open;
            }
            limit = 2 * limit;
        }
    }

    /**
     * Waits up to {@link #SIDE_WAIT} for a claim's further connections. One still locking or taking then (a
     * lock of the service's own that hangs, a take behind a long transaction) holds back no more claims: it
     * finishes on its own, and {@link #handOver} decides what becomes of its row.
     */
    private void awaitSide(List<Thread> side) {
        long until = System.nanoTime() + SIDE_WAIT.toNanos();
        boolean interrupted = false;
        for (Thread t : side) {
            long left;
            while (t.isAlive() && (left = until - System.nanoTime()) > 0) {
                try {
                    t.join(Duration.ofNanos(left));
                } catch (InterruptedException e) {
                    // the claim still counts what its connections took before it goes on
                    interrupted = true;
                }
            }
            if (t.isAlive()) {
                LOG.warn("a connection of a claim on {} has not finished its lock and take in {}; the claim goes on"
                        + " without it", ctx.queue, SIDE_WAIT);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts a row a further connection of a claim took: as part of the claim while the claim waits for it;
     * once the claim has gone on without it, where a worker is free at once; otherwise the row goes back.
     */
    private static void handOver(InWork d, AtomicInteger taken, Dispatch dispatch) {
        if (taken.getAndUpdate(n -> n == CLAIM_OVER ? n : n + 1) != CLAIM_OVER || dispatch.tryTakeOne()) {
            dispatch.start(d);
        } else {
            dispatch.turnAway(d);
        }
    }

    /**
     * Tries candidates from {@code queue} on {@code c} until it takes one, whose delivery (not yet started)
     * then keeps the connection; null where it took none. Otherwise (the candidates ran out, a lock failed, or
     * a key's release was not confirmed) the connection and its permit go back: evicted where a key it locked
     * may still be held, since only the end of its session frees the key then.
     */
    private InWork takeOne(Connection c, Queue<Placed> queue) throws Exception {
        boolean evict = false;
        try {
            Placed placed;
            while ((placed = queue.poll()) != null) {
                QueueKeys.Candidate candidate = placed.candidate();
                // a key taken before a failure may still be held
                evict = true;
                Tried tried = steps.locksAndTakes() ? lockAndTake(c, candidate) : lockThenTake(c, candidate);
                evict = tried.keyMayBeHeld();
                if (tried.failure() != null) {
                    throw tried.failure();
                }
                if (tried.taken().isEmpty()) {
                    if (evict) {
                        return null;
                    }
                    continue;
                }
                InWork d = new AdvisoryDelivery(ctx, tried.taken().get(0), c, candidate.key());
                d.place = placed.place();
                c = null;
                return d;
            }
            return null;
        } finally {
            if (c != null) {
                keys.returnConnection(c, evict);
            }
        }
    }

    /**
     * Takes a row by the advisory walk ({@link ClaimSteps#walk}) on {@code c}, which stays the caller's: for
     * the row's delivery, another walk, the candidates (which find a row behind more rows of held keys than a
     * walk tries), or the pool. Where the walk fails, the connection is evicted, since a key it locked may
     * still be held.
     */
    private QueueKeys.Walked<ClaimedRow> walk(Connection c) throws Exception {
        try {
            ctx.turn.lockInterruptibly();
        } catch (InterruptedException e) {
            keys.returnConnection(c, false);
            throw e;
        }
        try {
            return steps.walk(c);
        } catch (SQLException | RuntimeException e) {
            keys.returnConnection(c, true);
            throw e;
        } finally {
            ctx.turn.unlock();
        }
    }

    /**
     * A candidate and its place in the claim, in claim order: the connections of a claim take their rows side
     * by side and finish in any order, and a batch lists its rows by this place ({@link InWork#place}).
     */
    private record Placed(QueueKeys.Candidate candidate, int place) {}

    /**
     * What trying one candidate came to: the row taken, whose key the connection then holds (none where it
     * took nothing); where it took nothing, whether a key of it may still be held; the failure, if any.
     */
    private record Tried(List<ClaimedRow> taken, boolean keyMayBeHeld, Exception failure) {
        static final Tried NOTHING = new Tried(List.of(), false, null);
    }

    /**
     * The key and the row in one statement, which releases a key whose row it did not take; a failure leaves
     * the key's state unknown.
     */
    private Tried lockAndTake(Connection c, QueueKeys.Candidate candidate) throws InterruptedException {
        ctx.turn.lockInterruptibly();
        try {
            return new Tried(steps.lockAndTake(c, candidate), false, null);
        } catch (SQLException | RuntimeException e) {
            return new Tried(List.of(), true, e);
        } finally {
            ctx.turn.unlock();
        }
    }

    /**
     * The key's lock, then the row's take; a key whose row is not taken (settled by another holder between
     * the candidates and the lock, or a take that failed) is released.
     */
    private Tried lockThenTake(Connection c, QueueKeys.Candidate candidate) throws SQLException {
        if (!keys.lock(c, candidate.key())) {
            return Tried.NOTHING;
        }
        List<ClaimedRow> taken;
        try {
            taken = takeInTurn(c, candidate.id());
        } catch (Exception e) {
            return new Tried(List.of(), !keys.unlock(c, candidate.key()), e);
        }
        if (taken.isEmpty()) {
            return new Tried(List.of(), !keys.unlock(c, candidate.key()), null);
        }
        return new Tried(taken, false, null);
    }

    /** Takes a candidate's row; where the database takes one writer at a time, in turn with the settle threads. */
    private List<ClaimedRow> takeInTurn(Connection c, Object id) throws Exception {
        ctx.turn.lockInterruptibly();
        try {
            return steps.take(c, id);
        } finally {
            ctx.turn.unlock();
        }
    }
}
