package dev.tablequeue.broker;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.BindingStatements;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import org.jooq.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One mounted handler at run time: its loop, its workers and the deliveries they hold.
 *
 * <p>One claim thread (a platform thread) takes rows for every free worker at once through the form's
 * {@link Claimer}, starts each row's handler on a virtual thread (or on the subscription's platform threads,
 * {@link Mount#onThreads}; with one worker, runs it itself once the claim has ended), and claims again as
 * soon as a handler returns; a claim that found nothing waits the poll interval (or a wake-up), and one that
 * failed backs off.
 * Being alone, it never claims beside another claim of its subscription, as SQLite requires. A batch
 * subscription claims on this one thread as well, although its claims keep it busy: claim threads of its own
 * per worker, measured with {@code batch(64)} and 8 workers, made it slower on PostgreSQL and on MariaDB, and
 * their lease claims deadlocked one another on InnoDB. Each answer
 * goes to the form's {@link Completer}, which writes it. Its {@link FormRuntime} gives the two.
 *
 * <p>Every connection held past a statement counts against the broker's {@link ConnectionBudget}.
 */
final class Subscription<T> {
    private static final Logger LOG = LoggerFactory.getLogger(Subscription.class);

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
    final Acknowledgements acknowledged = new Acknowledgements();

    private final Handler<T> handler;
    private final QueueDialect dialect;
    private final Duration lease;
    private final long pollNanos;
    private SubscriptionContext ctx;
    private Settlement settlement;
    private FormRuntime form;
    private Handling<T> handling;
    private Thread claims;
    private Slots slots;
    private Claimer claimer;
    private Completer completer;
    private Deliveries<T> deliveries;
    private HandlerThreads handlers;
    private volatile boolean running;
    /** The claims: the claim thread's loop, the in-process claims, the settlements' claims, and their pause. */
    private final ClaimLoop<T> loop;
    /** Released when the subscription stops: a failed delivery held before its retry is let go then. */
    private final CountDownLatch stopping = new CountDownLatch(1);

    Subscription(QueueBroker broker, Mount<T> mount, Handler<T> handler) {
        this.broker = broker;
        this.mount = mount;
        this.queue = mount.queue;
        this.binding = mount.queue.binding();
        this.handler = handler;
        this.dialect = broker.dialect;
        this.lease = mount.lease != null ? Leases.whole(mount.lease, "the lease of " + queue) : broker.lease;
        this.pollNanos = (mount.pollInterval != null ? mount.pollInterval : broker.pollInterval).toNanos();
        this.loop = new ClaimLoop<>(this, pollNanos);
    }

    /** Checks the declaration, builds the statements and prepares each on the server. */
    void open(Connection connection) throws SQLException {
        Declarations.check(mount, binding, broker.listenNotify, channel(), dialect);
        ClaimShape shape = mount.rows ? ClaimShape.ROWS : ClaimShape.ROLES;
        StartRules.Variant variant = new StartRules.Variant(shape, mount.deadLetterGroup != null, mount.deadLetterTable,
                mount.byKey);
        // the first refusal is thrown, so the statements are there when the rules return
        StartRules.Opened opened = StartRules.subscription(dialect, connection, binding, variant, "queue " + queue,
                StartRules.THROW).orElseThrow();
        SubscriptionStatements statements = opened.statements();
        RowReader reader = new RowReader(binding, mount.rows, RowReader.records(dialect.sqlDialect()));
        SettlementPlanner planner = new SettlementPlanner(binding, statements, mount.maxAttempts,
                mount.deadLetterGroup, mount.deadLetterTable, queue.group(), queue);
        ctx = new SubscriptionContext(broker, queue, statements, reader, planner, inWork, acknowledged,
                mount.transactional, lease, wakeup, pollNanos);
        settlement = new Settlement(ctx, connection);
        handling = new Handling<>(mount, handler, planner, stopping);
        form = FormRuntime.of(ctx, settlement, opened.locks().orElse(null));
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

    /** What this subscription serves, as the broker lists it. */
    ServedQueue served() {
        Optional<DeadLetter> deadLetter = mount.deadLetterGroup != null
                ? Optional.of(DeadLetter.group(mount.deadLetterGroup))
                : Optional.ofNullable(mount.deadLetterTable).map(DeadLetter::table);
        return new ServedQueue(queue, deadLetter, mount.workers, mount.payloadType, mount.rows);
    }

    /** A row for this subscription was written in a transaction whose commit the broker cannot see. */
    void wakeUntilCommitted() {
        wakeup.wakeRepeatedly(pollNanos);
    }

    // ------------------------------------------------------------------ running

    void start() {
        running = true;
        String name = "tablequeue-" + binding.tableName() + "-" + queue.name();
        // a batch subscription counts rows: each worker's claim takes up to a batch of them
        slots = new Slots(mount.workers * Math.max(1, mount.batch), form.claimAhead(mount), form.claimsForSeveral());
        claimer = form.claimer();
        completer = form.completer(slots, wakeup, name + "-settle");
        handlers = new HandlerThreads(broker, mount, queue);
        deliveries = new Deliveries<>(this, handling, slots, completer, handlers, pollNanos);
        loop.begin(slots, claimer, completer, deliveries, handlers);
        form.loopBegun(loop, mount);
        completer.start();
        if (!broker.inProcess) {
            claims = Threads.platform(name + "-claim").newThread(loop::run);
            claims.start();
        }
        claimer.start(name);
    }

    /**
     * In-process mode: claims and handles on this thread what is due until a claim finds nothing, waiting for
     * the outcomes to be written ({@link ClaimLoop#runInline}).
     */
    void runInline() {
        if (running) {
            loop.runInline();
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
            if (claims == null) {
                completer.claimsEnded();
            } else if (left > 0) {
                claims.join(Duration.ofNanos(left));
            }
            completer.drainQueued(deadline);
            // the handlers in work finish and their outcomes are written, up to the deadline
            slots.awaitAllSettled(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            completer.stop(deadline);
            claimer.stop();
        }
        deliveries.closeAdmission();
        int released = 0;
        int closed = 0;
        int abandoned = 0;
        for (InWork d : inWork) {
            abandoned++;
            switch (completer.release(d)) {
                case LOCK_RELEASED -> released++;
                case CONNECTION_CLOSED -> closed++;
                case KEPT -> { }
            }
        }
        long until = System.nanoTime() + CLOSE_GRACE.toNanos();
        try {
            // the claim thread gives back what it still takes; one still in a handler takes nothing more
            if (claims != null && !handlers.claimThreadHandling()) {
                claims.join(Duration.ofNanos(Math.max(1, until - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        completer.awaitUnderWay(until);
        claimer.awaitStopped(until);
        handlers.shutdown();
        if (claims != null && claims.isAlive() && !handlers.claimThreadHandling()) {
            LOG.warn("the claim thread of {} is still in a statement {} after the drain timeout; a row it takes"
                    + " is given back at once", queue, CLOSE_GRACE);
        }
        return new Drain(released, closed, abandoned);
    }

    /**
     * Stops claiming: returns once a claim in progress has put its rows into work, and from then on nothing
     * is claimed until {@link #resume()}. Deliveries in work finish and settle as before. Before the
     * subscription starts, it makes it start paused.
     */
    void pause() {
        loop.pause();
    }

    /** Claims again, at once. */
    void resume() {
        loop.resume();
    }

    boolean paused() {
        return loop.paused();
    }

    boolean isRunning() {
        return running;
    }

    /** Stops claiming and waits a short grace for a claim under way to put its rows into work. */
    void stopAndAwaitClaims() {
        stop();
        try {
            loop.awaitSettlementClaims(CLOSE_GRACE);
            // a handler on the claim thread itself ends its claim loop when it returns
            if (claims != null && claims != Thread.currentThread()) {
                claims.join(CLOSE_GRACE);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The lock writers take turns on where the database takes one writer at a time; null where it takes many. */
    ReentrantLock writeTurn() {
        return ctx.turn.reentrantLock();
    }
}
