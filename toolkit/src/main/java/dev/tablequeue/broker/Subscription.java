package dev.tablequeue.broker;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Own;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.BindingStatements;
import dev.tablequeue.dialect.Binds;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SqliteKeyRegistry;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import dev.tablequeue.dialect.TransactionOpening;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One mounted handler at run time: its statements, its workers and the deliveries they hold.
 *
 * <p>One claim thread (a platform thread) takes rows for every free worker at once, starts each row's
 * handler on a virtual thread, and claims again as soon as a handler returns; a claim that found nothing
 * waits the poll interval (or a wake-up). Being alone, it never claims beside another claim of its
 * subscription, as SQLite requires.
 *
 * <p>Row lock and lease: one statement claims the rows (one row at a time where a FIFO group or the
 * service's own claim needs it), and a {@link Settler} writes the outcomes many at a time. The rows of one
 * row lock claim share its transaction and commit together when the last of them settles. Where the database
 * takes one writer at a time (SQLite), the outcomes are written by the claim thread itself, before each
 * claim: there is nothing to overlap, and the hand-off to a settle thread cost more than it gave.
 *
 * <p>Advisory: one candidates statement lists rows whose keys look free, in claim order; until the free
 * workers are filled, a connection of each free worker's own locks a candidate's key and takes its row (the
 * connections side by side, except on SQLite). That connection holds the key while the handler runs; then
 * one of the subscription's settle threads (on SQLite the claim thread) writes the outcome and releases the
 * key on it. These outcomes are not batched: each is written on the connection that holds its key.
 *
 * <p>Every connection held past a statement counts against the broker's {@link ConnectionBudget}.
 */
final class Subscription<T> {
    private static final Logger LOG = LoggerFactory.getLogger(Subscription.class);

    /** The threads that write a subscription's outcomes at once. */
    private static final int SETTLERS = 2;
    /**
     * How long an advisory claim waits for its further connections' locks and takes before it goes on
     * without one that hangs (a row it then takes starts where a worker is free, or goes back).
     */
    private static final Duration SIDE_WAIT = Duration.ofSeconds(1);
    /** Marks a claim that has gone on without its further connections. */
    private static final int CLAIM_OVER = Integer.MIN_VALUE;
    /** The slices of a wait for a budget permit, so that a stop or an outcome to write is seen meanwhile. */
    private static final long PERMIT_SLICE_MILLIS = 20;
    /**
     * How long close() waits past the drain timeout for work already under way: a claim, whose rows are then
     * given back, and settlements in flight, whose connections then come back.
     */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

    final QueueBroker broker;
    final Mount<T> mount;
    final InboxQueue<? extends Record> queue;
    final RoleBinding<?> binding;
    final Wakeup wakeup = new Wakeup();
    final Set<InWork> inWork = ConcurrentHashMap.newKeySet();

    private final Handler<T> handler;
    private final QueueDialect dialect;
    private final Duration lease;
    private final long pollNanos;
    private Thread claims;
    private Slots slots;
    private Settler settler;
    /** Advisory: the settle threads, each writing one outcome at a time on its delivery's connection. */
    private ExecutorService advisorySettlers;
    private SubscriptionStatements statements;
    private RowReader reader;
    private Settlement settlement;
    private String database;
    private ScheduledExecutorService keeper;
    private volatile boolean running;
    /** Set by {@link #pause()}: the claim thread claims nothing until {@link #resume()}. */
    private volatile boolean paused;
    /**
     * Held by the claim thread while a claim runs, until its rows are in work, so that {@link #pause()} can
     * wait for a claim in progress.
     */
    private final ReentrantLock claimTurn = new ReentrantLock();
    /** Released when the subscription stops: a failed delivery held before its retry is let go then. */
    private final CountDownLatch stopping = new CountDownLatch(1);
    /** The rows the claim in progress has put into work; the claim thread's alone. */
    private int dispatched;
    /**
     * Where the database takes one writer at a time (SQLite): the claim thread's lease claims and advisory
     * takes and the settle threads' outcomes take turns here, rather than in the database's busy handler,
     * which sleeps.
     */
    private final ReentrantLock writeTurn = new ReentrantLock();
    /**
     * Where the database takes one writer at a time (SQLite): the claim thread writes the queued outcomes
     * itself before each claim, so an outcome reaches the database without a hand-off to another thread and
     * without waiting for the write turn.
     */
    private boolean settlesInline;
    /** Held while a delivery goes into work, so that none does once the drain has released the others. */
    private final ReentrantLock admission = new ReentrantLock();
    /** False once the drain has released the deliveries in work; read and moved under {@link #admission}. */
    private boolean admitting = true;

    Subscription(QueueBroker broker, Mount<T> mount, Handler<T> handler) {
        this.broker = broker;
        this.mount = mount;
        this.queue = mount.queue;
        this.binding = mount.queue.binding();
        this.handler = handler;
        this.dialect = broker.dialect;
        this.lease = mount.lease != null ? Leases.whole(mount.lease, "the lease of " + queue) : broker.lease;
        this.pollNanos = (mount.pollInterval != null ? mount.pollInterval : broker.pollInterval).toNanos();
    }

    // ------------------------------------------------------------------ opening

    /** Checks the declaration, builds the statements and prepares each on the server. */
    void open(Connection connection) throws SQLException {
        Declarations.check(mount, binding, broker.listenNotify, channel());
        dialect.validate(binding);
        ClaimShape shape = mount.rows ? ClaimShape.ROWS : ClaimShape.ROLES;
        statements = SubscriptionStatements.build(dialect, binding, shape, mount.deadLetterGroup != null, mount.deadLetterTable);
        statements.prepare(dialect, connection, binding.tableName(), queue.toString());
        AttemptDefault.check(connection, binding, queue.toString());
        reader = new RowReader(binding, mount.rows, RowReader.records(dialect.sqlDialect()));
        settlement = new Settlement(this, statements, dialect);
        database = dialect.advisoryKeysInProcess()
                ? SqliteKeyRegistry.databaseOf(connection)
                : connection.getMetaData().getURL();
    }

    /** The notification channel of this subscription's table: its name, qualified with its schema. */
    String channel() {
        return BindingStatements.channel(binding);
    }

    boolean reads(String table, String group) {
        return binding.tableName().equals(table) && (group == null || readsGroup(group));
    }

    boolean readsGroup(String group) {
        return queue.group() == null || queue.group().equals(group);
    }

    /** A row for this subscription was written in a transaction whose commit the broker cannot see. */
    void wakeUntilCommitted() {
        wakeup.wakeRepeatedly(pollNanos);
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

    // ------------------------------------------------------------------ running

    void start() {
        running = true;
        String name = "tablequeue-" + binding.tableName() + "-" + queue.name();
        slots = new Slots(mount.workers);
        // (a database that takes one writer at a time has no row locks: its row lock form is refused at start)
        settlesInline = !dialect.claimsInParallel() && binding.form() != Form.ROW_LOCK;
        if (binding.form() == Form.ADVISORY && !settlesInline) {
            advisorySettlers = Executors.newFixedThreadPool(SETTLERS, Threads.platform(name + "-settle"));
        } else {
            settler = new Settler(settlement, slots, name + "-settle", settlesInline ? 0 : SETTLERS);
            settler.start();
        }
        claims = Threads.platform(name + "-claim").newThread(this::claimLoop);
        claims.start();
        if (binding.form() == Form.LEASE) {
            keeper = Executors.newSingleThreadScheduledExecutor(Threads.platform(name + "-lease"));
            long every = Math.max(1, lease.toMillis() / 2);
            keeper.scheduleWithFixedDelay(this::extendLeases, every, every, TimeUnit.MILLISECONDS);
        }
    }

    void stop() {
        running = false;
        stopping.countDown();
        wakeup.wake();
        if (slots != null) {
            slots.wake();
        }
    }

    /** What a drain left: locks released, connections closed, deliveries still in work. */
    record Drain(int locksReleased, int connectionsClosed, int abandoned) {}

    /**
     * Waits for the claim thread and the deliveries in work until {@code deadline}, then releases what the
     * deliveries still in work hold: an advisory key (its connection goes back to the pool, or ends its
     * session where the release is not confirmed) or a row lock claim's transaction. From then on no row
     * goes into work: one the claim thread still takes is given back at once. Last, it waits a short grace
     * for what was under way, so that nothing of the subscription holds a lock or a connection when it
     * returns (a lease delivery's handler still running settles later, on a connection of its own).
     */
    Drain drain(long deadline) {
        try {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                claims.join(Duration.ofNanos(left));
            }
            if (settlesInline) {
                // no claim thread writes them any more: what is queued is written here, and each outcome that
                // comes later on its handler's thread
                settler.stop(deadline);
            }
            // the handlers in work finish and their outcomes are written, up to the deadline
            slots.awaitAllSettled(deadline);
            if (settler != null) {
                settler.stop(deadline);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (keeper != null) {
                keeper.shutdownNow();
            }
            if (advisorySettlers != null) {
                // what is queued is still written; an outcome that arrives later is written by its handler's thread
                advisorySettlers.shutdown();
            }
        }
        admission.lock();
        try {
            admitting = false;
        } finally {
            admission.unlock();
        }
        int released = 0;
        int closed = 0;
        int abandoned = 0;
        List<InWork> settling = new ArrayList<>();
        for (InWork d : inWork) {
            abandoned++;
            Settlement.Release release = settlement.release(d);
            switch (release) {
                case LOCK_RELEASED -> released++;
                case CONNECTION_CLOSED -> closed++;
                case KEPT -> { }
            }
            if (d.advisoryKey != null) {
                if (release == Settlement.Release.KEPT) {
                    // its settlement is under way, and gives the connection back
                    settling.add(d);
                } else {
                    giveBack(d);
                }
            }
        }
        awaitUnderWay(settling, System.nanoTime() + CLOSE_GRACE.toNanos());
        return new Drain(released, closed, abandoned);
    }

    /**
     * Waits up to {@code until} for what was under way when the drain released the deliveries: the claim
     * thread (which gives back what it still takes), the threads that write and extend, and the settlements
     * whose connection has not come back yet.
     */
    private void awaitUnderWay(List<InWork> settling, long until) {
        try {
            claims.join(Duration.ofNanos(Math.max(1, until - System.nanoTime())));
            if (advisorySettlers != null) {
                advisorySettlers.awaitTermination(until - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
            if (keeper != null) {
                keeper.awaitTermination(until - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
            if (settler != null) {
                settler.stop(until);
            }
            for (InWork d : settling) {
                d.connectionBack.await(until - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (claims.isAlive()) {
            LOG.warn("the claim thread of {} is still in a statement {} after the drain timeout; a row it takes"
                    + " is given back at once", queue, CLOSE_GRACE);
        }
    }

    /** Claims rows for the free workers until the subscription stops. */
    private void claimLoop() {
        try {
            claimUntilStopped();
        } finally {
            if (settlesInline) {
                // no claim thread writes them any more: an outcome that comes later is written on its own thread
                settler.stopAccepting();
            }
        }
    }

    private void claimUntilStopped() {
        long backoff = 0;
        while (running) {
            long idle = wakeup.sequence();
            if (settlesInline) {
                settler.writeQueued();
            }
            if (paused) {
                // nothing is claimed; a resume, a stop or an outcome for this thread to write ends the wait
                try {
                    wakeup.await(idle, pollNanos);
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            int free;
            try {
                free = slots.take(mount.workers, pollNanos);
            } catch (InterruptedException e) {
                return;
            }
            if (free == 0) {
                continue;
            }
            if (settlesInline) {
                // the handler that freed this worker queued its outcome first: written now, the claim finds
                // its row (a retry) and its key free, where it would otherwise wait for the next poll
                settler.writeQueued();
            }
            long seen = wakeup.sequence();
            dispatched = 0;
            try {
                long began = System.nanoTime();
                if (claimUnlessPaused(free)) {
                    Duration took = Duration.ofNanos(System.nanoTime() - began);
                    int rows = dispatched;
                    tell(() -> broker.listener.claimed(queue, rows, took));
                }
                backoff = 0;
            } catch (InterruptedException e) {
                return;
            } catch (Throwable e) {
                // a claim that fails (the table dropped, the server restarting) never ends the loop
                if (!running) {
                    return;
                }
                backoff = Math.min(Math.max(100, backoff * 2), 30_000);
                LOG.warn("claim on {} failed, claiming again in {} ms: {}", queue, backoff, e.toString());
                broker.listener.claimFailed(queue, e);
                try {
                    wakeup.await(wakeup.sequence(), TimeUnit.MILLISECONDS.toNanos(backoff));
                } catch (InterruptedException stop) {
                    return;
                }
                continue;
            } finally {
                slots.giveBack(free - dispatched);
            }
            if (dispatched == 0 && running) {
                try {
                    wakeup.await(seen, pollNanos);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Claims rows for {@code free} workers, unless the subscription was paused meanwhile; false where it was. */
    private boolean claimUnlessPaused(int free) throws Exception {
        claimTurn.lock();
        try {
            if (paused) {
                return false;
            }
            switch (binding.form()) {
                case ROW_LOCK -> claimRowLock(free);
                case LEASE -> claimLease(free);
                case ADVISORY -> claimAdvisory(free);
            }
            return true;
        } finally {
            claimTurn.unlock();
        }
    }

    /**
     * Stops claiming: returns once a claim in progress has put its rows into work, and from then on nothing
     * is claimed until {@link #resume()}. Deliveries in work finish and settle as before. Before the
     * subscription starts, it makes it start paused.
     */
    void pause() {
        paused = true;
        claimTurn.lock();
        claimTurn.unlock();
    }

    /** Claims again, at once. */
    void resume() {
        paused = false;
        wakeup.wake();
    }

    boolean paused() {
        return paused;
    }

    /** How many rows one claim may take for {@code free} workers: one where order or the service's claim needs it. */
    private int claimLimit(int free) {
        return binding.fifo() || binding.owns(Event.CLAIM) ? 1 : free;
    }

    /**
     * Row lock: claims rows in a transaction that stays open while their handlers run; the group's settlement
     * commits it.
     */
    private void claimRowLock(int free) throws Exception {
        if (!permit()) {
            return;
        }
        Connection c = null;
        boolean handedOver = false;
        try {
            c = broker.dataSource.getConnection();
            Transactions.begin(c, statements.opening());
            List<ClaimedRow> rows;
            try {
                rows = claim(c, broker.clock.instant(), null, claimLimit(free));
            } catch (Exception e) {
                Transactions.rollbackQuietly(c, statements.opening());
                throw e;
            }
            if (rows.isEmpty()) {
                Transactions.rollbackQuietly(c, statements.opening());
                return;
            }
            ClaimGroup group = new ClaimGroup(c, rows.size(), broker.budget::release);
            handedOver = true;
            for (ClaimedRow row : rows) {
                dispatch(new InWork(this, row, c, null, null, group));
            }
        } finally {
            if (!handedOver) {
                if (c != null) {
                    c.close();
                }
                broker.budget.release();
            }
        }
    }

    /** Lease: claims rows, stamps them and commits at once; their handlers run with no connection held. */
    private void claimLease(int free) throws Exception {
        if (!permit()) {
            return;
        }
        List<ClaimedRow> rows;
        Instant until;
        boolean inTurn = !dialect.claimsInParallel();
        try {
            if (inTurn) {
                writeTurn.lockInterruptibly();
            }
        } catch (InterruptedException e) {
            broker.budget.release();
            throw e;
        }
        try (Connection c = broker.dataSource.getConnection()) {
            Instant now = broker.clock.instant();
            until = Leases.expiry(now, lease);
            boolean oneStatement = statements.guard().isEmpty() && statements.stamp().isEmpty()
                    && !binding.owns(Event.CLAIM) && statements.opening().equals(TransactionOpening.DEFAULT);
            if (oneStatement) {
                // the claim leases its rows in one statement: auto-commit makes it atomic without a transaction
                rows = claim(c, now, until, claimLimit(free));
            } else {
                Transactions.begin(c, statements.opening());
                try {
                    rows = claim(c, now, until, claimLimit(free));
                    // an own claim was stamped before its fetch; the dialect's claim is stamped here where it
                    // does not stamp itself
                    if (!rows.isEmpty() && statements.stamp().isPresent() && !binding.owns(Event.CLAIM)) {
                        List<Binds> stamps = new ArrayList<>(rows.size());
                        for (ClaimedRow row : rows) {
                            stamps.add(new Binds().ids(List.of(row.id())).leaseUntil(until));
                        }
                        Jdbc.updateEach(c, statements.stamp().get(), stamps, dialect);
                    }
                    Transactions.commit(c, statements.opening());
                } catch (Exception e) {
                    Transactions.rollbackQuietly(c, statements.opening());
                    throw e;
                }
            }
        } finally {
            if (inTurn) {
                writeTurn.unlock();
            }
            broker.budget.release();
        }
        for (ClaimedRow row : rows) {
            dispatch(new InWork(this, row, null, null, until));
        }
    }

    /**
     * Takes a budget permit, waiting up to the poll interval, and no longer once the subscription stops.
     * Where the claim thread writes the outcomes itself (SQLite), it writes those that arrive meanwhile: the
     * permits it waits for may be held by advisory deliveries whose outcome only this thread writes, and
     * which give their connection back only once it is written.
     */
    private boolean permit() throws InterruptedException {
        long deadline = System.nanoTime() + pollNanos;
        while (true) {
            if (broker.budget.acquire(0)) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !running) {
                return false;
            }
            long slice = Math.min(left, TimeUnit.MILLISECONDS.toNanos(PERMIT_SLICE_MILLIS));
            if (settlesInline) {
                settler.writeArriving(slice);
            } else if (broker.budget.acquire(TimeUnit.NANOSECONDS.toMillis(slice))) {
                return true;
            }
        }
    }

    /**
     * Advisory: reads the candidates once for the {@code free} workers, then, in claim order until they are
     * filled, locks a candidate's key on a connection of its own and takes its row. That connection holds the
     * key until the row's settlement releases it. The candidates run on the first connection, which the first
     * candidate taken keeps; each further one takes a budget permit only where one is free at once, and the
     * claim ends where none is. A candidate whose key is taken or whose row is gone is passed over.
     *
     * <p>Where the database takes writers side by side, each free worker's connection tries the candidates at
     * the same time as the others (on a virtual thread each, the first on this thread), so a claim costs the
     * round trips of one lock and one take rather than of all of them in a row. Where it takes one writer at a
     * time (SQLite), one connection after another tries them here.
     */
    private void claimAdvisory(int free) throws Exception {
        if (!permit()) {
            return;
        }
        Connection first = connection();
        Queue<Candidate> untried;
        try {
            untried = new ConcurrentLinkedQueue<>(candidates(first, free));
        } catch (Exception e) {
            returnConnection(first, false);
            throw e;
        }
        if (!dialect.claimsInParallel() || free == 1 || untried.size() <= 1) {
            Connection c = first;
            while (c != null) {
                InWork d = takeOne(c, untried);
                if (d == null) {
                    return;
                }
                dispatch(d);
                c = dispatched < free && !untried.isEmpty() && broker.budget.acquire(0) ? connection() : null;
            }
            return;
        }
        List<Connection> others = new ArrayList<>();
        try {
            for (int i = 1; i < Math.min(free, untried.size()); i++) {
                if (!broker.budget.acquire(0)) {
                    break;
                }
                others.add(connection());
            }
        } catch (SQLException | RuntimeException e) {
            others.forEach(c -> returnConnection(c, false));
            returnConnection(first, false);
            throw e;
        }
        // the rows the further connections took into this claim; CLAIM_OVER once it has gone on without them
        AtomicInteger taken = new AtomicInteger();
        ClaimFailures failures = new ClaimFailures(queue);
        List<Thread> side = new ArrayList<>(others.size());
        for (Connection c : others) {
            side.add(Thread.ofVirtual().name("tablequeue-claim-" + queue.name()).start(() -> {
                try {
                    InWork d = takeOne(c, untried);
                    if (d != null) {
                        handOver(d, taken);
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            }));
        }
        try {
            InWork d = takeOne(first, untried);
            if (d != null) {
                dispatch(d);
            }
        } catch (Exception e) {
            failures.add(e);
        } finally {
            awaitSide(side);
            dispatched += taken.getAndSet(CLAIM_OVER);
        }
        Exception failure = failures.end();
        if (failure != null) {
            throw failure;
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
                        + " without it", queue, SIDE_WAIT);
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
    private void handOver(InWork d, AtomicInteger taken) {
        if (taken.getAndUpdate(n -> n == CLAIM_OVER ? n : n + 1) != CLAIM_OVER || slots.tryTakeOne()) {
            start(d);
        } else {
            turnAway(d);
        }
    }

    /**
     * Advisory: tries candidates from {@code queue} on {@code c} until it takes one, whose delivery (not yet
     * started) then keeps the connection; null where it took none. Otherwise (the candidates ran out, a lock
     * failed, or a key's release was not confirmed) the connection and its permit go back: evicted where a
     * key it locked may still be held, since only the end of its session frees the key then.
     */
    private InWork takeOne(Connection c, Queue<Candidate> queue) throws Exception {
        boolean evict = false;
        try {
            Candidate candidate;
            while ((candidate = queue.poll()) != null) {
                boolean locked;
                try {
                    locked = settlement.lock(c, candidate.key());
                } catch (Throwable e) {
                    // the lock may have been taken before the failure
                    evict = true;
                    throw e;
                }
                if (!locked) {
                    continue;
                }
                List<ClaimedRow> taken;
                try {
                    taken = takeInTurn(c, candidate.id());
                } catch (Exception e) {
                    evict = !settlement.unlock(c, candidate.key());
                    throw e;
                }
                if (taken.isEmpty()) {
                    // settled by another holder between the select and the lock
                    evict = !settlement.unlock(c, candidate.key());
                    if (evict) {
                        return null;
                    }
                    continue;
                }
                InWork d = new InWork(this, taken.get(0), c, candidate.key(), null);
                c = null;
                return d;
            }
            return null;
        } finally {
            if (c != null) {
                returnConnection(c, evict);
            }
        }
    }

    /** A connection of the pool for a budget permit already taken; the permit is returned where none comes. */
    private Connection connection() throws SQLException {
        try {
            return broker.dataSource.getConnection();
        } catch (SQLException | RuntimeException e) {
            broker.budget.release();
            throw e;
        }
    }

    /**
     * Returns an advisory connection and its budget permit: to the pool, or evicted where a key it took may
     * still be held.
     */
    private void returnConnection(Connection c, boolean evict) {
        try {
            if (evict) {
                Pools.evict(broker.dataSource, c);
            } else {
                c.close();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("a connection of {} did not return to the pool: {}", queue, e.toString());
        } finally {
            broker.budget.release();
        }
    }

    /** Gives an advisory delivery's connection and its budget permit back: once, by its settlement or its release. */
    private void giveBack(InWork d) {
        returnConnection(d.connection, d.evicted);
        d.connectionBack.countDown();
    }

    private record Candidate(Object id, String key) {}

    /**
     * The advisory candidates for {@code free} workers, in claim order: twice as many and one more, for the
     * keys that other claims take meanwhile; where the process keeps the keys (SQLite) the statement cannot
     * leave out the keys in work, so as many more again.
     */
    private List<Candidate> candidates(Connection c, int free) throws SQLException {
        int limit = 2 * free + 1;
        if (dialect.advisoryKeysInProcess()) {
            limit += SqliteKeyRegistry.process().heldKeys(database).size();
        }
        Binds binds = new Binds().group(queue.group()).now(broker.clock.instant()).limit(limit);
        return Jdbc.query(c, statements.claim(), binds, dialect, rs -> {
            List<Candidate> list = new ArrayList<>();
            while (rs.next()) {
                list.add(new Candidate(rs.getObject(1), rs.getString(2)));
            }
            return list;
        });
    }

    /** Takes a candidate's row; where the database takes one writer at a time, in turn with the settle threads. */
    private List<ClaimedRow> takeInTurn(Connection c, Object id) throws Exception {
        if (dialect.claimsInParallel()) {
            return take(c, id);
        }
        writeTurn.lockInterruptibly();
        try {
            return take(c, id);
        } finally {
            writeTurn.unlock();
        }
    }

    private List<ClaimedRow> take(Connection c, Object id) throws Exception {
        Binds binds = new Binds().id(id).group(queue.group()).now(broker.clock.instant());
        Statement take = statements.take().orElseThrow();
        if (statements.fetchOne().isEmpty()) {
            return Jdbc.query(c, take, binds, dialect, reader::readAll);
        }
        if (Jdbc.update(c, take, binds, dialect) == 0) {
            return List.of();
        }
        return fetch(c, id);
    }

    /** Runs the FIFO guard (where there is one) and the claim of up to {@code limit} rows, in the open transaction. */
    private List<ClaimedRow> claim(Connection c, Instant now, Instant until, int limit) throws Exception {
        Binds binds = new Binds().group(queue.group()).now(now).limit(limit).leaseUntil(until);
        if (statements.guard().isPresent()) {
            var guard = statements.guard().get();
            if (guard.answers()) {
                if (!Jdbc.query(c, guard.statement(), binds, dialect, Jdbc::firstBoolean)) {
                    return List.of();
                }
            } else {
                Jdbc.query(c, guard.statement(), binds, dialect, rs -> null);
            }
        }
        if (binding.owns(Event.CLAIM)) {
            return ownClaim(c, until);
        }
        return Jdbc.query(c, statements.claim(), binds, dialect, reader::readAll);
    }

    /**
     * The service's own claim: it returns the ids it took (and locked, in the row lock form); in the lease
     * form the dialect stamps them; then the service's own fetch, or the dialect's, reads them.
     */
    private List<ClaimedRow> ownClaim(Connection c, Instant until) throws Exception {
        DSLContext ctx = DSL.using(c, dialect.sqlDialect());
        List<?> ids = ((Own.Claim) binding.ownEvents().get(Event.CLAIM)).claim(ctx, queue.group(), 1);
        if (ids == null || ids.isEmpty()) {
            return List.of();
        }
        Object id = ids.get(0);
        if (statements.stamp().isPresent()) {
            Jdbc.update(c, statements.stamp().get(), new Binds().ids(List.of(id)).leaseUntil(until), dialect);
        }
        return fetch(c, id);
    }

    /** Reads one claimed row by id: the service's own fetch, or the dialect's; an id without a row fails to decode. */
    private List<ClaimedRow> fetch(Connection c, Object id) throws Exception {
        List<ClaimedRow> rows;
        if (binding.owns(Event.FETCH)) {
            var fetched = ((Own.Fetch) binding.ownEvents().get(Event.FETCH))
                    .fetch(DSL.using(c, dialect.sqlDialect()), List.of(id));
            rows = new ArrayList<>();
            for (Record r : fetched) {
                rows.add(reader.fromRecord(r, binding.form() != Form.ROW_LOCK));
            }
        } else {
            rows = Jdbc.query(c, statements.fetchOne().orElseThrow(), new Binds().ids(List.of(id)), dialect,
                    reader::readAll);
        }
        if (rows.isEmpty()) {
            return List.of(new ClaimedRow(id, java.util.OptionalInt.empty(), null, java.util.Map.of(), null, null,
                    new IllegalStateException("claimed id " + id + " of table \"" + binding.tableName()
                            + "\" has no row in the fetch")));
        }
        return rows;
    }

    // ------------------------------------------------------------------ delivering

    /** Counts {@code d} in the claim in progress and puts it into work; the claim thread's alone. */
    private void dispatch(InWork d) {
        dispatched++;
        start(d);
    }

    /**
     * Runs the handler on a virtual thread of its own; its worker is free when it returns, and {@link #hand}
     * passes its answer on. A row taken once the subscription has drained is given back instead. Any thread
     * may call it.
     */
    private void start(InWork d) {
        if (!admit(d)) {
            turnAway(d);
            return;
        }
        Thread.ofVirtual().name("tablequeue-handler-" + queue.name()).start(() -> {
            long began = System.nanoTime();
            Settlement.Pending pending;
            try {
                pending = new Settlement.Pending(d, outcome(d));
            } catch (Error e) {
                stopOnError(d, e);
                throw e;
            }
            Duration took = Duration.ofNanos(System.nanoTime() - began);
            tell(() -> broker.listener.handled(d, pending.outcome(), took));
            hand(pending);
        });
    }

    /** Counts {@code d} in work, unless the subscription has drained; false then. */
    private boolean admit(InWork d) {
        admission.lock();
        try {
            if (admitting) {
                inWork.add(d);
            }
            return admitting;
        } finally {
            admission.unlock();
        }
    }

    /**
     * Gives back a row that was taken but does not go into work (the subscription has drained, or a claim
     * that went on without its connection found no worker free): its key or its claim's transaction is
     * released and its connection returned, and the row is back in the queue (a lease row once its lease
     * runs out).
     */
    private void turnAway(InWork d) {
        settlement.release(d);
        if (d.advisoryKey != null) {
            giveBack(d);
        }
        LOG.info("{} was taken but does not go into work; its row goes back to the queue", d);
    }

    /**
     * A handler failed with an {@link Error} (its row's decoding or its failure policy included). That is no
     * business failure a retry could mend but a fault of the process, as likely to strike the next row: the
     * row is written nothing, so it returns by its form's rule (a row lock's rollback or commit leaves it as
     * it was, a lease runs out, a key is released); the subscription stops claiming (the deliveries in work
     * still settle); and the Error goes on up the handler's thread to its uncaught exception handler.
     */
    private void stopOnError(InWork d, Error e) {
        LOG.error("the handler of {} failed on {} with {}: its row is written nothing and returns by its form's"
                + " rule, and the subscription claims no more rows", queue, d, e.toString(), e);
        stop();
        try {
            // a claim under way would take the row straight back once its key or its lock is released
            claims.join(CLOSE_GRACE);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        hand(Settlement.Pending.nothing(d));
        try {
            broker.listener.subscriptionStopped(queue, e);
        } catch (RuntimeException listenerFailure) {
            e.addSuppressed(listenerFailure);
        }
    }

    /**
     * Hands a delivery's answer on to be written; its worker is free now. The settler writes a row lock or
     * lease outcome (a row lock claim's outcomes once the last is in); a settle thread writes an advisory
     * outcome on the delivery's own connection.
     */
    private void hand(Settlement.Pending pending) {
        InWork d = pending.d();
        if (settlesInline) {
            // queued before the worker is free, so the claim thread it wakes finds it
            if (d.advisoryKey != null) {
                settler.submit(() -> settleOnItsConnection(pending));
            } else {
                settler.submit(pending);
            }
            slots.handled();
            wakeup.wake();
            return;
        }
        slots.handled();
        if (d.advisoryKey != null) {
            settleAdvisory(pending);
        } else if (d.group == null) {
            settler.submit(pending);
        } else {
            List<Settlement.Pending> all = d.group.add(pending);
            if (all != null) {
                settler.submit(d.group, all);
            } else {
                // it waits for its claim's last handler, on the claim's connection: it no longer holds back
                // the claims of the free workers (a slow handler would otherwise stop them all)
                slots.settled(1);
            }
        }
    }

    /**
     * Advisory: hands the outcome to a settle thread. Once the subscription has drained (a handler that
     * outlived the drain, whose key was released) the outcome is written here, as the {@link Settler} does.
     */
    private void settleAdvisory(Settlement.Pending pending) {
        try {
            advisorySettlers.execute(() -> settleOnItsConnection(pending));
        } catch (RejectedExecutionException drained) {
            settleOnItsConnection(pending);
        }
    }

    /**
     * Advisory: writes the outcome and releases the key on the delivery's connection, then returns the
     * connection and its budget permit.
     */
    private void settleOnItsConnection(Settlement.Pending pending) {
        InWork d = pending.d();
        boolean inTurn = !dialect.claimsInParallel();
        if (inTurn) {
            writeTurn.lock();
        }
        boolean took = false;
        try {
            took = settlement.settle(pending);
        } finally {
            if (inTurn) {
                writeTurn.unlock();
            }
            if (took) {
                // a delivery released at shutdown gave its connection back then
                giveBack(d);
            }
            inWork.remove(d);
            slots.settled(1);
        }
    }

    /** What the handler answers, or the failure policy where the row did not decode or the handler threw. */
    private Outcome outcome(InWork d) {
        T message;
        try {
            message = decode(d.row);
        } catch (Exception e) {
            broker.listener.decodeFailed(d, e);
            Outcome outcome = policy(mount.onDecodeFailure, d, e);
            LOG.error("row {} of table \"{}\" (queue {}) does not decode and {}: {}", d.id(), binding.tableName(),
                    queue, settlement.fate(d, outcome), e.toString());
            return held(d, outcome);
        }
        try {
            T decoded = message;
            Outcome outcome = broker.middlewares.handles()
                    ? broker.middlewares.handle(queue.name(), d, () -> handler.handle(decoded, d))
                    : handler.handle(message, d);
            if (outcome == null) {
                throw new IllegalStateException("the handler of " + queue + " returned no outcome");
            }
            return outcome;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return policy(mount.onHandlerFailure, d, e);
        } catch (Exception e) {
            // an Error is not caught here: see stopOnError
            Outcome outcome = policy(mount.onHandlerFailure, d, e);
            LOG.warn("the handler of {} failed on row {}, which {}", queue, d.id(), settlement.fate(d, outcome), e);
            return held(d, outcome);
        }
    }

    /** Runs a listener callback; one that throws is logged, so it never stops a claim or a settlement. */
    private void tell(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.warn("a broker listener of {} threw: {}", queue, e.toString());
        }
    }

    private Outcome policy(FailurePolicy policy, InWork d, Throwable failure) {
        d.failure = failure;
        try {
            Outcome outcome = policy.settle(d, failure);
            return outcome == null ? Outcome.retry() : outcome;
        } catch (RuntimeException e) {
            LOG.warn("the failure policy of {} threw; retrying {}: {}", queue, d, e.toString());
            return Outcome.retry();
        }
    }

    /**
     * A failure policy's delayed retry on a table that cannot hide its row (no retryAfter column): the worker
     * holds the delivery for the delay (at most {@link Backoff#MOST_HELD_SECONDS}), or until the subscription
     * stops, and then returns the row at once. Returning it at once without the hold would deliver a failing
     * row again at full speed, for ever where no cap is declared.
     */
    private Outcome held(InWork d, Outcome outcome) {
        if (!(outcome instanceof Outcome.RetryAfter r) || binding.has(Role.RETRY_AFTER)
                || binding.owns(Event.RETRY_AFTER) || settlement.spent(d)) {
            return outcome;
        }
        long nanos = Math.min(r.delay().toNanos(), TimeUnit.SECONDS.toNanos(Backoff.MOST_HELD_SECONDS));
        try {
            stopping.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Outcome.retry();
    }

    @SuppressWarnings("unchecked")
    private T decode(ClaimedRow row) throws Exception {
        if (row.decodeFailure() != null) {
            throw row.decodeFailure() instanceof Exception e ? e : new IllegalStateException(row.decodeFailure());
        }
        if (mount.rows) {
            return (T) row.record();
        }
        if (row.payload() == null) {
            throw new IllegalStateException("the payload column of row " + row.id() + " is NULL");
        }
        T message = broker.codec.decode(row.payload(), mount.payloadType);
        if (message == null) {
            // a handler is never handed null: JSON null (or a codec's empty answer) carries no message
            throw new IllegalStateException("the payload of row " + row.id() + " decodes to null");
        }
        return message;
    }

    // ------------------------------------------------------------------ leases

    /** Extends the lease of every delivery in work; runs each half lease. */
    private void extendLeases() {
        for (InWork d : inWork) {
            try {
                settlement.extend(d, Leases.expiry(broker.clock.instant(), lease));
            } catch (Exception e) {
                LOG.warn("the lease of {} was not extended: {}", d, e.toString());
            }
        }
    }

    /** The lock writers take turns on where the database takes one writer at a time; null where it takes many. */
    ReentrantLock writeTurn() {
        return dialect.claimsInParallel() ? null : writeTurn;
    }

    String database() {
        return database;
    }

    Duration lease() {
        return lease;
    }

    boolean isRunning() {
        return running;
    }
}
