package dev.tablequeue.broker;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Own;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.Binds;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SqliteKeyRegistry;
import dev.tablequeue.dialect.Statement;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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
    private Statements statements;
    private RowReader reader;
    private Settlement settlement;
    private String database;
    private ScheduledExecutorService keeper;
    private volatile boolean running;
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
        statements = Statements.build(dialect, binding, shape, mount.deadLetterGroup != null, mount.deadLetterTable);
        statements.prepare(dialect, connection, binding.tableName(), queue.toString());
        reader = new RowReader(binding, mount.rows, RowReader.records(dialect.sqlDialect()));
        settlement = new Settlement(this, statements, dialect);
        database = dialect.advisoryKeysInProcess()
                ? SqliteKeyRegistry.databaseOf(connection)
                : connection.getMetaData().getURL();
    }

    /** The notification channel of this subscription's table: its name, qualified with its schema. */
    String channel() {
        return binding.tableName();
    }

    boolean reads(String table, String group) {
        return binding.tableName().equals(table) && (group == null || readsGroup(group));
    }

    boolean readsGroup(String group) {
        return queue.group() == null || queue.group().equals(group);
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
        wakeup.wake();
        if (slots != null) {
            slots.wake();
        }
    }

    /** What a drain left: locks released, connections closed, deliveries still in work. */
    record Drain(int locksReleased, int connectionsClosed, int abandoned) {}

    /**
     * Waits for the claim thread and the deliveries in work until {@code deadline}, then releases what the
     * deliveries still in work hold.
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
        int released = 0;
        int closed = 0;
        int abandoned = 0;
        for (InWork d : inWork) {
            abandoned++;
            switch (settlement.release(d)) {
                case LOCK_RELEASED -> released++;
                case CONNECTION_CLOSED -> closed++;
                case KEPT -> { }
            }
        }
        return new Drain(released, closed, abandoned);
    }

    /** Claims rows for the free workers until the subscription stops. */
    private void claimLoop() {
        long backoff = 0;
        while (running) {
            if (settlesInline) {
                settler.writeQueued();
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
            long seen = wakeup.sequence();
            dispatched = 0;
            try {
                switch (binding.form()) {
                    case ROW_LOCK -> claimRowLock(free);
                    case LEASE -> claimLease(free);
                    case ADVISORY -> claimAdvisory(free);
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

    /** How many rows one claim may take for {@code free} workers: one where order or the service's claim needs it. */
    private int claimLimit(int free) {
        return binding.fifo() || binding.owns(Event.CLAIM) ? 1 : free;
    }

    /**
     * Row lock: claims rows in a transaction that stays open while their handlers run; the group's settlement
     * commits it.
     */
    private void claimRowLock(int free) throws Exception {
        if (!broker.budget.acquire(pollMillis())) {
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
        if (!broker.budget.acquire(pollMillis())) {
            return;
        }
        List<ClaimedRow> rows;
        Instant until;
        boolean inTurn = !dialect.claimsInParallel();
        if (inTurn) {
            writeTurn.lockInterruptibly();
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

    private long pollMillis() {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(pollNanos));
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
        if (!broker.budget.acquire(pollMillis())) {
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
            while (c != null && takeOne(c, untried)) {
                dispatched++;
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
        AtomicInteger taken = new AtomicInteger();
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> side = new ArrayList<>(others.size());
        for (Connection c : others) {
            side.add(Thread.ofVirtual().name("tablequeue-claim-" + queue.name()).start(() -> {
                try {
                    if (takeOne(c, untried)) {
                        taken.incrementAndGet();
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        try {
            if (takeOne(first, untried)) {
                taken.incrementAndGet();
            }
        } catch (Exception e) {
            failure.compareAndSet(null, e);
        } finally {
            boolean interrupted = false;
            for (Thread t : side) {
                while (true) {
                    try {
                        t.join();
                        break;
                    } catch (InterruptedException e) {
                        // each side thread ends on its own: its connection must be handed on or returned first
                        interrupted = true;
                    }
                }
            }
            dispatched += taken.get();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /**
     * Advisory: tries candidates from {@code queue} on {@code c} until it takes one, whose delivery then keeps
     * the connection; true if it did. Otherwise (the candidates ran out, or a key's release was not confirmed
     * and the connection must end its session) the connection and its permit go back.
     */
    private boolean takeOne(Connection c, Queue<Candidate> queue) throws Exception {
        boolean evict = false;
        try {
            Candidate candidate;
            while ((candidate = queue.poll()) != null) {
                if (!settlement.lock(c, candidate.key())) {
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
                        return false;
                    }
                    continue;
                }
                start(new InWork(this, taken.get(0), c, candidate.key(), null));
                c = null;
                return true;
            }
            return false;
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
     * Runs the handler on a virtual thread of its own; its worker is free when it returns. The settler writes
     * a row lock or lease outcome (a row lock claim's outcomes once the last is in); a settle thread writes an
     * advisory outcome on the delivery's own connection. Any thread may call it.
     */
    private void start(InWork d) {
        inWork.add(d);
        Thread.ofVirtual().name("tablequeue-handler-" + queue.name()).start(() -> {
            Outcome outcome = outcome(d);
            Settlement.Pending pending = new Settlement.Pending(d, outcome);
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
        });
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
        try {
            settlement.settle(d, pending.outcome());
        } finally {
            if (inTurn) {
                writeTurn.unlock();
            }
            returnConnection(d.connection, d.evicted);
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
            LOG.warn("{} does not decode, settled by the decode policy: {}", d, e.toString());
            broker.listener.decodeFailed(d, e);
            return policy(mount.onDecodeFailure, d, e);
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
        } catch (Exception | Error e) {
            LOG.warn("the handler of {} failed on {}: {}", queue, d, e.toString());
            return policy(mount.onHandlerFailure, d, e);
        }
    }

    private Outcome policy(FailurePolicy policy, InWork d, Throwable failure) {
        try {
            Outcome outcome = policy.settle(d, failure);
            return outcome == null ? Outcome.retry() : outcome;
        } catch (RuntimeException e) {
            LOG.warn("the failure policy of {} threw; retrying {}: {}", queue, d, e.toString());
            return Outcome.retry();
        }
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
        return broker.codec.decode(row.payload(), mount.payloadType);
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
