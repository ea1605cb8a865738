package dev.tablequeue.broker;

import dev.tablequeue.DeclarationException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueDialects;
import dev.tablequeue.transport.HandlerMiddleware;
import dev.tablequeue.transport.PublishMiddleware;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.jooq.conf.Settings;

/** What a {@link QueueBroker.Builder} has been told so far, with each setting's default. */
abstract class BrokerSettings {
    final DataSource dataSource;
    Duration pollInterval = Duration.ofSeconds(1);
    Duration lease = Duration.ofSeconds(30);
    Duration drainTimeout = Duration.ofSeconds(30);
    Duration ownRowWait = Duration.ofSeconds(30);
    Clock clock = Clock.systemUTC();
    Codec codec = new JacksonCodec();
    BrokerListener listener = new BrokerListener() {};
    boolean listenNotify;
    boolean inProcess;
    QueueDialect dialect;
    int poolSize;
    final Map<String, QueueBroker.Route> routes = new LinkedHashMap<>();
    final List<PublishMiddleware> publishMiddlewares = new ArrayList<>();
    final List<HandlerMiddleware> handlerMiddlewares = new ArrayList<>();
    AfterCommit afterCommit = AfterCommit.NONE;
    HandlerScope handlerScope;
    Settings jooqSettings;
    final List<Retention> retentions = new ArrayList<>();
    Duration retentionEvery = Duration.ofMinutes(1);

    BrokerSettings(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    abstract QueueBroker.Builder self();

    /** Leads publishes under {@code name} into {@code binding}'s table; a name ending in {@code *} is a prefix. */
    public QueueBroker.Builder route(String name, RoleBinding<?> binding) {
        addRoute(name, new QueueBroker.Route(binding, null));
        return self();
    }

    /** Leads publishes under {@code name} into {@code binding}'s table through the service's own insert. */
    public QueueBroker.Builder route(String name, RoleBinding<?> binding, OwnInsert insert) {
        addRoute(name, new QueueBroker.Route(binding, Objects.requireNonNull(insert, "insert")));
        return self();
    }

    /** Wraps every publish of this broker; middlewares run in the order they are added, the first outermost. */
    public QueueBroker.Builder publishMiddleware(PublishMiddleware middleware) {
        publishMiddlewares.add(Objects.requireNonNull(middleware, "middleware"));
        return self();
    }

    /** Wraps every handler call of this broker's subscriptions, in the order added, the first outermost. */
    public QueueBroker.Builder handlerMiddleware(HandlerMiddleware middleware) {
        handlerMiddlewares.add(Objects.requireNonNull(middleware, "middleware"));
        return self();
    }

    /**
     * Where a publish on the caller's connection inside a transaction the broker cannot see (a framework's,
     * such as Spring's) defers its wake-up to that transaction's commit; see {@link AfterCommit}.
     */
    public QueueBroker.Builder afterCommit(AfterCommit hook) {
        this.afterCommit = Objects.requireNonNull(hook, "hook");
        return self();
    }

    /**
     * Runs every handler call of this broker's transactional subscriptions inside {@code scope}, which binds the
     * delivery's transaction to a framework's own registry of the thread's transaction (Spring's); see
     * {@link HandlerScope}. One scope per broker.
     */
    public QueueBroker.Builder handlerScope(HandlerScope scope) {
        this.handlerScope = Objects.requireNonNull(scope, "scope");
        return self();
    }

    /**
     * The jOOQ settings of the service, which the broker renders the names of its bindings' tables through:
     * their render mapping and whether they render schemas. Classes jOOQ generated on PostgreSQL name their
     * schema ({@code public.order_jobs}); on MariaDB or MySQL, where {@code public} is no database, give the
     * settings that map it, {@code new Settings().withRenderSchema(false)} (the connection's database) or a
     * {@code RenderMapping} from {@code public} to the database's name. SQLite never renders a schema and needs
     * none. {@code delivery.db()} and {@code delivery.tx()} carry these settings too.
     */
    public QueueBroker.Builder settings(Settings settings) {
        this.jooqSettings = Objects.requireNonNull(settings, "settings");
        return self();
    }

    /**
     * Deletes the finished rows of a table past the ages {@code retention} declares, in small batches, one
     * instance at a time: see {@link Retention}. One retention per table.
     */
    public QueueBroker.Builder retention(Retention retention) {
        String table = Objects.requireNonNull(retention, "retention").binding().tableName();
        if (retentions.stream().anyMatch(r -> r.binding().tableName().equals(table))) {
            throw new IllegalArgumentException("a retention of table \"" + table + "\" is declared twice");
        }
        retentions.add(retention);
        return self();
    }

    /** How often retention passes over its tables (default one minute); the first pass runs one period after start. */
    public QueueBroker.Builder retentionEvery(Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("retentionEvery must be positive, was " + period);
        }
        this.retentionEvery = period;
        return self();
    }

    /** The host clock statements read "now" from (default the system's UTC clock). */
    public QueueBroker.Builder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return self();
    }

    /** The codec of payloads (default JSON through Jackson). */
    public QueueBroker.Builder codec(Codec codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
        return self();
    }

    /** The lease of deliveries in the lease form (default 30 s; whole seconds, rounded up). */
    public QueueBroker.Builder lease(Duration lease) {
        this.lease = Leases.whole(lease, "the broker's lease");
        return self();
    }

    /**
     * How long a handler's statement through {@code delivery.db()} on its own subscription's table waits
     * for a row lock in the row lock form (default 30 s), before it fails with an error that says to write
     * the delivery's own row through {@code delivery.tx()}: that row is locked by the delivery's claim
     * until it settles, so the wait would otherwise never end.
     */
    public QueueBroker.Builder ownRowWait(Duration wait) {
        if (wait.isNegative() || wait.isZero()) {
            throw new IllegalArgumentException("ownRowWait must be positive, was " + wait);
        }
        this.ownRowWait = wait;
        return self();
    }

    /** How long {@link QueueBroker#close()} waits for handlers in work (default 30 s). */
    public QueueBroker.Builder drainTimeout(Duration timeout) {
        this.drainTimeout = Objects.requireNonNull(timeout, "timeout");
        return self();
    }

    void addRoute(String name, QueueBroker.Route route) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(route.binding(), "binding");
        if (routes.putIfAbsent(name, route) != null) {
            throw new IllegalArgumentException("route \"" + name + "\" is declared twice");
        }
    }

    /**
     * The dialect given, or the one {@link QueueDialects#detect} finds for the database; rendering names through
     * the service's {@link #settings(Settings) settings} where given.
     */
    QueueDialect dialect() {
        QueueDialect chosen = dialect;
        if (chosen == null) {
            try (Connection c = dataSource.getConnection()) {
                chosen = QueueDialects.detect(c);
            } catch (SQLException e) {
                throw new TableQueueException("cannot reach the database to detect its dialect: " + e.getMessage(),
                        e);
            }
        }
        return jooqSettings == null ? chosen : chosen.rendering(jooqSettings);
    }

    /** The pool's size: declared, or read from the data source. */
    int poolSize() {
        return poolSize > 0 ? poolSize : Pools.maximumSize(dataSource).orElseThrow(
                () -> new DeclarationException("the data source (" + dataSource.getClass().getName() + ") does"
                        + " not report how many connections it gives at once, and the broker keeps its"
                        + " subscriptions within that number less one, so that handlers' own queries and"
                        + " publishes always find a connection: declare it with poolSize(n)"));
    }
}
