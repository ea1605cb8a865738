package dev.tablequeue.outbox;

import dev.tablequeue.SchemaException;
import dev.tablequeue.broker.AsyncApi;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.transport.HandlerMiddleware;
import dev.tablequeue.transport.PublishMiddleware;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jooq.TransactionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional outbox: the registry of the names a service tracks, each with the record table its
 * messages are recorded in until a consumer has processed them, and what it mounts on a transport.
 *
 * <pre>{@code
 * Outbox outbox = Outbox.builder(dataSource)
 *     .register("orders", ORDERS_OUTBOX)
 *     .build();
 * RabbitTransport rabbit = RabbitTransport.builder(connectionFactory)
 *     .publishMiddleware(outbox.publishMiddleware())
 *     .handlerMiddleware(outbox.handlerMiddleware())
 *     .build();
 * ... subscribe, then:
 * outbox.start(rabbit::send);        // sends every unprocessed record again, then keeps the periodic republish
 * }</pre>
 *
 * <p>A message is delivered at least once: its record is written before it is sent, carries the record's id
 * in {@link #ID_HEADER}, and stays unprocessed until it is done ({@link DoneWhen}): once a tracking consumer
 * acknowledges (or drops) it, which then acknowledges a copy without its handler, or once the broker confirms it.
 */
public final class Outbox implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Outbox.class);

    /** The header a tracked message carries its record's id in. */
    public static final String ID_HEADER = "tablequeue-outbox-id";

    private final boolean enabled;
    private final Clock clock;
    private final Map<String, Registration> byName;
    private final Map<OutboxBinding<?>, RecordStatements> statements;
    private final Duration retention;
    private final Duration republishEvery;
    private final Duration sweepEvery;
    private final PublishTracking publishTracking;
    private final DeliveryTracking deliveryTracking;
    private final Republisher republisher;
    private final AfterCommit.Listener listener = new AfterCommit.Listener();
    private ScheduledExecutorService background;
    private boolean started;

    private Outbox(Builder b, boolean enabled) {
        this.enabled = enabled;
        this.clock = b.clock;
        this.retention = b.retention;
        this.republishEvery = b.republishEvery != null ? b.republishEvery
                : b.republishAfter != null ? b.republishAfter : null;
        this.sweepEvery = b.sweepEvery;
        Map<OutboxBinding<?>, RecordStatements> built = new IdentityHashMap<>();
        Map<String, Registration> names = new HashMap<>();
        if (enabled) {
            QueueDialect dialect = b.dialect != null ? b.dialect : OutboxPreparation.detect(b.dataSource);
            for (Map.Entry<String, OutboxBinding<?>> e : b.registrations.entrySet()) {
                OutboxBinding<?> binding = e.getValue();
                RecordStatements s = built.computeIfAbsent(binding, x -> new RecordStatements(x, dialect));
                names.put(e.getKey(), new Registration(e.getKey(), binding, s, b.republishAfter));
            }
            OutboxPreparation.prepare(b.dataSource, dialect, built);
        }
        this.byName = Map.copyOf(names);
        this.statements = built;
        this.publishTracking = new PublishTracking(this, b.dataSource);
        this.deliveryTracking = new DeliveryTracking(this, b.dataSource);
        this.republisher = new Republisher(this, b.dataSource);
    }

    /** Starts an outbox on {@code dataSource}, the pool its records are written and read through. */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** Whether this outbox tracks: false under a test kit, unless {@code TABLEQUEUE_OUTBOX=on}. */
    public boolean enabled() {
        return enabled;
    }

    /** The names this outbox tracks. */
    public Set<String> names() {
        return byName.keySet();
    }

    /**
     * The outbox's names as channels of an AsyncAPI document, which the service sends to:
     * {@code broker.asyncApi().with(outbox.asyncApi())}.
     */
    public AsyncApi.Part asyncApi() {
        return new OutboxChannels(byName.values());
    }

    Registration registration(String name) {
        return enabled ? byName.get(name) : null;
    }

    Clock clock() {
        return clock;
    }

    /** The publish middleware to mount on every transport that publishes tracked names. */
    public PublishMiddleware publishMiddleware() {
        return enabled ? publishTracking : (message, next) -> next.send(message);
    }

    /** The handler middleware to mount on every transport whose subscriptions consume tracked names. */
    public HandlerMiddleware handlerMiddleware() {
        return enabled ? deliveryTracking : (name, delivery, next) -> next.call();
    }

    /**
     * Gives a send of the service's own the tracking a transport's publish middleware gives: for a publisher
     * used outside the transports that mount {@link #publishMiddleware()} (an HTTP endpoint's client, say).
     * Payloads that are not bytes are encoded with {@code codec}.
     */
    public TrackedPublisher wrap(Sender sender, dev.tablequeue.broker.Codec codec) {
        return new TrackedPublisher(this, Objects.requireNonNull(sender, "sender"), Objects.requireNonNull(codec,
                "codec"));
    }

    /** As {@link #wrap(Sender, dev.tablequeue.broker.Codec)}, with JSON through Jackson. */
    public TrackedPublisher wrap(Sender sender) {
        return wrap(sender, new dev.tablequeue.broker.JacksonCodec());
    }

    /**
     * The jOOQ transaction listener that sends a tracked message published with a transaction's context after
     * the transaction commits (and drops it when it rolls back). Set it on the configuration the service runs
     * its transactions with: {@code configuration.set(outbox.transactionListener())}.
     */
    public TransactionListener transactionListener() {
        return listener;
    }

    /**
     * Opens a frame around a transaction the service runs itself (on a connection, or through a framework
     * jOOQ does not see): a tracked message published in it is sent when {@link AfterCommit#committed()} is
     * called after the commit, and not at all where the frame closes without it.
     *
     * <pre>{@code
     * try (AfterCommit after = outbox.afterCommit()) {
     *     connection.setAutoCommit(false);
     *     ... publisher.publish(DSL.using(connection), message) ...
     *     connection.commit();
     *     after.committed();
     * }
     * }</pre>
     */
    public AfterCommit afterCommit() {
        return AfterCommit.open();
    }

    /**
     * Sends every unprocessed record of every name again, in id order, each with its id and headers: what a
     * service runs at startup once its subscriptions are open. Off under the test kit (sends nothing).
     *
     * @return the records sent
     * @throws OutboxException naming the record (or the table) that could not be sent (or read)
     */
    public int republish(Sender sender) {
        return enabled ? republisher.atStartup(byName.values(), sender) : 0;
    }

    /** As {@link #republish(Sender)}, for the records of {@code names} only (the names one transport carries). */
    public int republish(Sender sender, String... names) {
        if (!enabled) {
            return 0;
        }
        List<Registration> chosen = new ArrayList<>();
        for (String name : names) {
            Registration r = byName.get(name);
            if (r == null) {
                throw new OutboxException("republish of \"" + name + "\": the name is not registered (registered: "
                        + new java.util.TreeSet<>(byName.keySet()) + ")");
            }
            chosen.add(r);
        }
        return republisher.atStartup(chosen, sender);
    }

    /**
     * One pass of the periodic republish: sends the unprocessed records whose age ran out, each claimed so that
     * no other instance sends it before the age runs out again.
     *
     * @return the records sent
     */
    public int republishDue(Sender sender) {
        return enabled ? republisher.due(byName.values(), sender) : 0;
    }

    /** One pass of the retention sweep: deletes the processed records older than the retention; how many. */
    public int sweep() {
        if (!enabled || retention == null) {
            return 0;
        }
        return republisher.sweep(statements.keySet(), retention, statements);
    }

    /**
     * Starts the outbox on a transport: the republish at startup (which throws where a record cannot be sent),
     * then, where configured, the periodic republish and the retention sweep on a thread of their own.
     */
    public synchronized void start(Sender sender) {
        Objects.requireNonNull(sender, "sender");
        if (started) {
            throw new IllegalStateException("the outbox is started already");
        }
        started = true;
        int sent = republish(sender);
        if (!enabled) {
            return;
        }
        LOG.info("tablequeue outbox started: {} record(s) sent again at startup", sent);
        if (republishEvery == null && retention == null) {
            return;
        }
        background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tablequeue-outbox");
            t.setDaemon(true);
            return t;
        });
        if (republishEvery != null) {
            every(republishEvery, () -> republishDue(sender), "the periodic republish");
        }
        if (retention != null) {
            every(sweepEvery, this::sweep, "the retention sweep");
        }
    }

    /** Runs {@code pass} every {@code interval} on the background thread; a failed pass is logged, the next runs. */
    private void every(Duration interval, Runnable pass, String what) {
        long millis = interval.toMillis();
        background.scheduleWithFixedDelay(() -> {
            try {
                pass.run();
            } catch (RuntimeException e) {
                LOG.warn("{} failed: {}", what, e.toString());
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Stops the periodic republish and the sweep. Idempotent. */
    @Override
    public synchronized void close() {
        if (background != null) {
            background.shutdownNow();
        }
    }

    /** Configures an {@link Outbox}; {@link #build()} checks it and prepares every statement on the server. */
    public static final class Builder {
        private final DataSource dataSource;
        private final Map<String, OutboxBinding<?>> registrations = new LinkedHashMap<>();
        private final List<String> twice = new ArrayList<>();
        private Clock clock = Clock.systemUTC();
        private QueueDialect dialect;
        private Duration republishAfter;
        private Duration republishEvery;
        private Duration retention;
        private Duration sweepEvery = Duration.ofMinutes(10);
        private Boolean enabled;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /** Tracks {@code name}, a string (read from configuration, say), in {@code binding}'s table. */
        public Builder register(String name, OutboxBinding<?> binding) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(binding, "binding");
            if (registrations.putIfAbsent(name, binding) != null) {
                twice.add(name);
            }
            return this;
        }

        /** Tracks a name the service declares as a type of its own, in {@code binding}'s table. */
        public Builder track(TrackedName name, OutboxBinding<?> binding) {
            return register(Objects.requireNonNull(name, "name").outboxName(), binding);
        }

        /** The host clock a record's lease and the sweep's cut-off are read from (default the system's UTC clock). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** A dialect of the service's own, instead of the one detected from the database. */
        public Builder dialect(QueueDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * Sends an unprocessed record again, while the service runs, once {@code age} has passed since it was
         * written (or last sent again). Each record table needs a lease column ({@link OutboxBinding.Builder#lease}).
         */
        public Builder republishAfter(Duration age) {
            this.republishAfter = positive(age, "republishAfter");
            return this;
        }

        /** How often the periodic republish looks for due records (default: the age of {@link #republishAfter}). */
        public Builder republishEvery(Duration interval) {
            this.republishEvery = positive(interval, "republishEvery");
            return this;
        }

        /** Deletes processed records older than {@code retention}; each record table needs processed_at. */
        public Builder retainProcessed(Duration retention) {
            this.retention = positive(retention, "retainProcessed");
            return this;
        }

        /** How often the retention sweep runs (default ten minutes). */
        public Builder sweepEvery(Duration interval) {
            this.sweepEvery = positive(interval, "sweepEvery");
            return this;
        }

        /** Turns tracking on or off whatever the test switch says (for the outbox's own tests). */
        Builder enabled(boolean on) {
            this.enabled = on;
            return this;
        }

        private static Duration positive(Duration d, String setting) {
            Objects.requireNonNull(d, setting);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(setting + " must be positive, was " + d);
            }
            return d;
        }

        /**
         * Checks the registrations and the settings, and prepares every statement on the server (under the
         * test kit, with the outbox off, nothing touches the database).
         *
         * @throws OutboxException for a name registered twice, naming it
         * @throws dev.tablequeue.BindingException for a setting a record table cannot carry
         * @throws SchemaException for a table or column the database lacks
         */
        public Outbox build() {
            if (!twice.isEmpty()) {
                throw new OutboxException("outbox: name" + (twice.size() > 1 ? "s " : " ")
                        + String.join(", ", new LinkedHashSet<>(twice).stream().map(n -> "\"" + n + "\"").toList())
                        + " registered twice; a name is tracked in one table");
            }
            if (republishEvery != null && republishAfter == null) {
                throw new IllegalArgumentException("republishEvery(..) sets the pace of republishAfter(..), which is"
                        + " not set");
            }
            for (OutboxBinding<?> b : new LinkedHashSet<>(registrations.values())) {
                Republisher.check(b, republishAfter != null, retention != null);
            }
            return new Outbox(this, enabled != null ? enabled : OutboxSwitch.enabled());
        }
    }

    @Override
    public String toString() {
        return "Outbox" + Arrays.toString(new java.util.TreeSet<>(byName.keySet()).toArray()) + (enabled ? "" : " (off)");
    }
}
