package dev.tablequeue.broker;

import dev.tablequeue.BrokerClosedException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.Lifecycle.State;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.transport.HandlerMiddleware;
import dev.tablequeue.transport.Middlewares;
import dev.tablequeue.transport.PublishMiddleware;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves queues kept in the tables of a service's {@link DataSource}: subscriptions claim rows, handlers'
 * outcomes settle them, and publishes write rows.
 *
 * <pre>{@code
 * QueueBroker broker = QueueBroker.builder(dataSource).pollInterval(Duration.ofSeconds(1)).build();
 * broker.subscribe(InboxQueue.of(SEND_EMAIL, "emails"))
 *     .payload(Email.class)
 *     .workers(4)
 *     .maxAttempts(5).deadLetter("escalated")
 *     .handle((email, delivery) -> deliver(email) ? Outcome.ack() : Outcome.retry());
 * broker.start();
 * ...
 * ShutdownReport report = broker.close();
 * }</pre>
 *
 * <p>A broker is configured, then started once, then closed once; settings cannot change after
 * {@link #start()}.
 */
public final class QueueBroker {
    private static final Logger LOG = LoggerFactory.getLogger(QueueBroker.class);

    final DataSource dataSource;
    final Duration pollInterval;
    final Duration lease;
    final Duration drainTimeout;
    final Duration ownRowWait;
    final Clock clock;
    final Codec codec;
    final BrokerListener listener;
    final boolean listenNotify;
    /** In-process mode ({@link Builder#inProcess()}): deliveries run on the thread that publishes. */
    final boolean inProcess;
    final QueueDialect dialect;
    final ConnectionBudget budget;
    final DSLContext db;
    final Middlewares middlewares;
    final AfterCommit afterCommit;
    /** Around each handler call of a transactional subscription; null: none. */
    final HandlerScope handlerScope;

    final Subscriptions subscriptions = new Subscriptions(this);
    final Schedules schedules = new Schedules(this);
    private final Map<String, Route> routes;
    final BrokerInserts inserts;
    /** Wakes the started subscriptions of a table. */
    final Wakeups wakeups = new Wakeups(subscriptions.started());
    private final Lifecycle lifecycle = new Lifecycle();
    /** The retention of the tables it is declared for. */
    final Retentions retentions;

    private QueueBroker(Builder b, int poolSize) {
        this.dataSource = b.dataSource;
        this.pollInterval = b.pollInterval;
        this.lease = b.lease;
        this.drainTimeout = b.drainTimeout;
        this.ownRowWait = b.ownRowWait;
        this.clock = b.clock;
        this.codec = b.codec;
        this.listener = b.listener;
        this.listenNotify = b.listenNotify;
        this.inProcess = b.inProcess;
        this.routes = Collections.unmodifiableMap(new LinkedHashMap<>(b.routes));
        this.dialect = b.dialect();
        this.budget = new ConnectionBudget(poolSize);
        this.db = b.jooqSettings == null ? DSL.using(b.dataSource, dialect.sqlDialect())
                : DSL.using(b.dataSource, dialect.sqlDialect(), b.jooqSettings);
        this.middlewares = new Middlewares(b.publishMiddlewares, b.handlerMiddlewares);
        this.inserts = new BrokerInserts(dialect);
        this.afterCommit = b.afterCommit;
        this.handlerScope = b.handlerScope;
        this.retentions = new Retentions(this, b.retentions, b.retentionEvery);
    }

    /**
     * Starts a broker on {@code dataSource}: a HikariCP pool, whose size the broker reads, or any other data
     * source with its size declared by {@link Builder#poolSize(int)}.
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** The dialect this broker's statements are built with. */
    public QueueDialect dialect() {
        return dialect;
    }

    /**
     * Starts a subscription to {@code queue}: choose what its handler takes, then its settings, then
     * {@code handle(..)}.
     *
     * @throws dev.tablequeue.AlreadySubscribedException if this broker already serves the queue
     */
    public <R extends Record> Subscribe<R> subscribe(InboxQueue<R> queue) {
        lifecycle.require(State.NEW, "subscribe to " + queue);
        subscriptions.requireAbsent(queue);
        return new Subscribe<>(this, queue, null);
    }

    /**
     * Starts a subscription by name: to the queue {@code name} of the table a route leads it to (its exact
     * route, else the longest prefix route, {@code "orders.*"}), the way a publish under that name writes its
     * rows there. It takes the broker's settings as any subscription does, but not {@code maxAttempts(..)} or
     * a dead letter, which need the queue named by its binding: {@link #subscribe(InboxQueue)} takes those.
     *
     * @throws dev.tablequeue.NoRouteException if no route leads {@code name} to a table
     * @throws dev.tablequeue.AlreadySubscribedException if this broker already serves that queue
     */
    public Subscribe<Record> subscribe(String name) {
        Objects.requireNonNull(name, "name");
        @SuppressWarnings("unchecked")
        RoleBinding<Record> binding = (RoleBinding<Record>) new Publisher(this, routes).route(name).binding();
        InboxQueue<Record> queue = InboxQueue.of(binding, name);
        lifecycle.require(State.NEW, "subscribe to " + queue);
        subscriptions.requireAbsent(queue);
        return new Subscribe<>(this, queue, name);
    }

    /**
     * Publishes a message into {@code queue} at each due instant of {@code schedule}, carrying
     * {@code payload.apply(instant)}, once across every broker on the database: the row's unique key
     * ({@code uniqueKey(..)} of the queue's binding) is set to {@code name@instant}. Runs from {@link #start()}.
     *
     * @throws dev.tablequeue.DeclarationException where the broker has a schedule of that name already; the
     *     start refuses a binding without a unique key over every row, or one that deletes processed rows
     */
    public void schedule(Schedule schedule, InboxQueue<?> queue, Function<Instant, ?> payload) {
        schedule(RecurringJob.of(schedule, queue, payload));
    }

    /**
     * Runs {@code job} from {@link #start()}: as {@link #schedule(Schedule, InboxQueue, Function)}, for a job
     * declared as a constant, which the build-time check and the command line find too.
     *
     * @throws dev.tablequeue.DeclarationException where the broker has a schedule of that name already
     */
    public void schedule(RecurringJob job) {
        lifecycle.require(State.NEW, "add " + Objects.requireNonNull(job, "job").schedule());
        schedules.add(job);
    }

    /** The schedules this broker runs, each with its last and next instants, in the order they were added. */
    public List<ScheduleState> schedules() {
        return schedules.states();
    }

    <T> void mount(Mount<T> mount, Handler<T> handler) {
        lifecycle.require(State.NEW, "mount a handler on " + mount.queue);
        subscriptions.add(mount.queue, new Subscription<>(this, mount, handler));
    }

    /**
     * Opens every subscription: checks its declaration, builds and prepares its statements on the server,
     * then starts claiming. Nothing starts if one subscription fails to open.
     *
     * @throws dev.tablequeue.SchemaException for a table or column the database lacks, in a statement a
     *     subscription runs or in the insert a publish into a subscribed or routed table runs
     * @throws dev.tablequeue.DeclarationException for settings a table cannot carry, a retention among them, or a
     *     schedule's table that cannot keep each instant to one row
     */
    public synchronized void start() {
        lifecycle.require(State.NEW, "start");
        retentions.open();
        int scheduled = schedules.open(inserts);
        int started = subscriptions.start(inserts, routes);
        retentions.start();
        lifecycle.moveTo(State.STARTED);
        schedules.start();
        LOG.info("tablequeue broker started on {} with {} subscription(s) and {} schedule(s)", dialect.name(),
                started, scheduled);
    }

    /**
     * Stops claiming for {@code queue}: returns once a claim in progress has put its rows into work, and from
     * then on the subscription takes no row until {@link #resume}. Its deliveries in work finish and settle as
     * before. Before {@link #start()}, the subscription starts paused.
     *
     * @throws IllegalArgumentException if this broker has no subscription to {@code queue}
     */
    public void pause(InboxQueue<?> queue) {
        requireOpen("pause " + queue);
        subscriptions.of(queue).pause();
        LOG.info("tablequeue subscription {} paused", queue);
    }

    /**
     * Claims for {@code queue} again, at once.
     *
     * @throws IllegalArgumentException if this broker has no subscription to {@code queue}
     */
    public void resume(InboxQueue<?> queue) {
        requireOpen("resume " + queue);
        subscriptions.of(queue).resume();
        LOG.info("tablequeue subscription {} resumed", queue);
    }

    /**
     * In-process mode: runs on this thread every delivery that is due now, subscription by subscription, and
     * returns once their outcomes are written.
     *
     * @throws IllegalStateException where the broker is not in {@link Builder#inProcess() in-process mode}
     */
    public void runDue() {
        requireOpen("run what is due");
        if (!inProcess) {
            throw new IllegalStateException("runDue() runs deliveries on the caller's thread in in-process mode;"
                    + " this broker's subscriptions claim on threads of their own: build it with inProcess()");
        }
        subscriptions.started().forEach(Subscription::runInline);
    }

    /** Whether the subscription to {@code queue} is paused. */
    public boolean isPaused(InboxQueue<?> queue) {
        return subscriptions.of(queue).paused();
    }

    /** How many deliveries of {@code queue} this broker has in work: claimed, and their outcome not yet written. */
    public int inWork(InboxQueue<?> queue) {
        return subscriptions.of(queue).inWork.size();
    }

    /** Whether the broker is started and not closed: its subscriptions claim (those not paused). */
    public boolean isRunning() {
        return lifecycle.is(State.STARTED);
    }

    /**
     * Whether the notification listener ({@link Builder#listenNotify()}) holds its connection with every
     * LISTEN in place: false where notifications are off, before {@link #start()}, after {@link #close()},
     * and while a lost connection is being opened again (the poll interval then finds the rows).
     */
    public boolean isListening() {
        return lifecycle.is(State.STARTED) && subscriptions.listening();
    }

    /** The queues this broker serves, in the order they were subscribed. */
    public List<ServedQueue> queues() {
        return subscriptions.served();
    }

    /**
     * An AsyncAPI 3.0 document of this broker's subscriptions and routes, from their declarations: add the
     * outbox with {@link AsyncApi#with(AsyncApi.Part)}, then {@link AsyncApi#toJson()}. It holds no address,
     * user or password of the data source.
     */
    public AsyncApi asyncApi() {
        return AsyncApi.of(queues(), routes);
    }

    /** The publisher of this broker: writes rows into the tables its routes and bindings lead to. */
    public Publisher publisher() {
        return new Publisher(this, routes);
    }

    /** The insert of {@code binding}, built once per binding. */
    Statement insert(RoleBinding<?> binding) {
        return inserts.insert(binding);
    }

    /** Where a route leads: a table, written by its binding's insert or by the service's own. */
    record Route(RoleBinding<?> binding, OwnInsert insert) {}

    /** @throws BrokerClosedException once the broker is closed */
    void requireOpen(String action) {
        lifecycle.requireOpen(action);
    }

    /**
     * Stops claiming, waits up to the drain timeout for handlers in work to finish and settle, then releases
     * what the deliveries still in work hold: every advisory lock (its connection back in the pool, or closed
     * where the release is not confirmed) and every row lock claim's transaction (rolled back). A late
     * settlement then fails with {@link BrokerClosedException} and its row is back in the queue. A claim still
     * under way is given back rather than handed to a handler. It stops the listener and reports what it
     * released and closed; when it returns, the broker holds no lock and no connection. Idempotent.
     */
    public synchronized ShutdownReport close() {
        if (lifecycle.is(State.CLOSED)) {
            return new ShutdownReport(0, 0, 0);
        }
        schedules.stop();
        lifecycle.moveTo(State.CLOSED);
        retentions.close();
        ShutdownReport report = subscriptions.close(drainTimeout);
        LOG.info("tablequeue broker closed: {}", report);
        return report;
    }

    /** Configures a {@link QueueBroker}. */
    public static final class Builder extends BrokerSettings {

        private Builder(DataSource dataSource) {
            super(dataSource);
        }

        @Override
        Builder self() {
            return this;
        }

        /** How long an idle subscription waits before it claims again (default one second). */
        public Builder pollInterval(Duration interval) {
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("pollInterval must be positive, was " + interval);
            }
            this.pollInterval = interval;
            return this;
        }

        /** Observes deliveries, settlements and failures. */
        public Builder listener(BrokerListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * On PostgreSQL: listens for notifications on one dedicated connection (channel = the table's name,
         * payload = the group) and announces each publish with {@code pg_notify}.
         */
        public Builder listenNotify() {
            this.listenNotify = true;
            return this;
        }

        /** A dialect of the service's own, instead of the built-in one detected from the database. */
        public Builder dialect(QueueDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * The most connections the data source gives at once. Required where it does not report it (a
         * HikariCP pool does): the broker keeps its subscriptions within it, less one connection that stays
         * free for handlers' own queries, publishes and lease settlements.
         */
        public Builder poolSize(int size) {
            if (size < 2) {
                throw new IllegalArgumentException("a broker needs a pool of at least 2 connections, was " + size);
            }
            this.poolSize = size;
            return this;
        }

        /**
         * In-process mode, for tests and for tools that run one step at a time: the subscriptions claim on no
         * thread of their own. A publish that commits on its own connection ({@code publish(binding, message)},
         * {@code publish(name, payload)}, {@code publishAll(binding, messages)}) runs the handlers of what is
         * due in its table on the caller's thread, and returns once their outcomes are written; so does the
         * commit of a publish in the caller's transaction where the broker sees it ({@link CommitWakeups}, an
         * {@link AfterCommit} hook). What comes due later (a delayed retry, a row another process wrote, a
         * publish whose commit the broker cannot see) runs at {@link QueueBroker#runDue()}.
         */
        public Builder inProcess() {
            this.inProcess = true;
            return this;
        }

        /**
         * Builds the broker, detecting the dialect where none was given.
         *
         * @throws dev.tablequeue.DeclarationException where the data source's size is neither reported nor
         *     declared, or {@code listenNotify()} is set on a database without notifications or on a pool too
         *     small to keep a connection for the listener
         */
        public QueueBroker build() {
            int size = poolSize();
            QueueBroker broker = new QueueBroker(this, size);
            Declarations.checkListener(listenNotify, broker.dialect, size);
            return broker;
        }
    }
}
