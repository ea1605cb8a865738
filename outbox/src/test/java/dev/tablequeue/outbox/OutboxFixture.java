package dev.tablequeue.outbox;

import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueDialects;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.test.SettableClock;
import dev.tablequeue.transport.PublishMiddleware;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the outbox suites share: a database of their own per test class, a pool, fresh record tables, the
 * outboxes and transports a test opens (closed after it), and a handler that keeps what it received.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class OutboxFixture {
    protected static final AtomicInteger TABLES = new AtomicInteger();
    protected static final Duration PATIENCE = Duration.ofSeconds(60);

    /** The payload of the suite's messages. */
    public record Order(int n) {}

    /** What a handler received: the order's number and the headers it came with. */
    public record Received(int n, Map<String, String> headers) {}

    protected abstract OutboxDatabase database();

    protected abstract TestTransport.Kind transportKind();

    protected FreshDatabase db;
    protected HikariDataSource pool;
    protected QueueDialect dialect;
    protected final SettableClock clock = new SettableClock();
    protected final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();
    protected final Faults faults = new Faults();

    @BeforeAll
    void openDatabase() throws SQLException {
        db = FreshDatabase.create(database().engine(), "outbox_" + getClass().getSimpleName());
        pool = database() == OutboxDatabase.SQLITE ? walPool(db) : db.pool(16);
        try (Connection c = pool.getConnection()) {
            dialect = QueueDialects.detect(c);
        }
    }

    /**
     * A pool on a SQLite file in WAL mode with synchronous NORMAL, as a service runs SQLite: the drills commit
     * thousands of times, and a commit in the default journal mode waits for several disk flushes.
     */
    private static HikariDataSource walPool(FreshDatabase db) {
        db.execute("PRAGMA journal_mode = WAL");
        com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
        config.setJdbcUrl(db.url());
        config.setMaximumPoolSize(16);
        config.setMinimumIdle(0);
        config.addDataSourceProperty("busy_timeout", "10000");
        config.addDataSourceProperty("synchronous", "NORMAL");
        return new HikariDataSource(config);
    }

    @AfterEach
    void closeOpened() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
        opened.clear();
        faults.sent.clear();
        faults.plan = m -> Faults.Fault.NONE;
    }

    @AfterAll
    void closeDatabase() {
        if (pool != null) {
            pool.close();
        }
        if (db != null) {
            db.close();
        }
    }

    protected RecordTable newRecords() {
        return newRecords(doneWhen());
    }

    /** A fresh record table whose bindings are done when {@code when} says (null: as the transport decides). */
    protected RecordTable newRecords(DoneWhen when) {
        String name = "records" + TABLES.incrementAndGet();
        db.execute(database().records(name));
        return new RecordTable(name, database().timeType(), when);
    }

    /** When the records of {@link #newRecords()} are done: null leaves it to the transport. */
    protected DoneWhen doneWhen() {
        return null;
    }

    protected String newBusinessTable() {
        String name = "orders" + TABLES.incrementAndGet();
        db.execute(database().business(name));
        return name;
    }

    protected Outbox outbox(UnaryOperator<Outbox.Builder> settings) {
        Outbox outbox = settings.apply(Outbox.builder(pool).clock(clock).enabled(true)).build();
        opened.add(outbox);
        return outbox;
    }

    protected Outbox outbox(RecordTable t, String... names) {
        return outbox(b -> {
            for (String name : names) {
                b.register(name, t.binding());
            }
            return b;
        });
    }

    protected TestTransport transport(Outbox outbox) {
        return transport(outbox, List.of(faults));
    }

    protected TestTransport transport(Outbox outbox, List<PublishMiddleware> inner) {
        TestTransport t = transportKind().open(outbox, inner, pool, database(),
                getClass().getSimpleName().toLowerCase() + TABLES.incrementAndGet());
        opened.add(t);
        return t;
    }

    /** A jOOQ context on the pool whose transactions report their commits to {@code outbox}. */
    protected DSLContext dsl(Outbox outbox) {
        return DSL.using(new DefaultConfiguration().set(pool).set(database().sqlDialect())
                .set(outbox.transactionListener()));
    }

    /** Prints a drill's line of figures and appends it to {@code target/drill-figures.txt}. */
    protected static void drillFigures(String line) {
        System.out.println(line);
        java.nio.file.Path figures = java.nio.file.Path.of("target", "drill-figures.txt");
        try {
            java.nio.file.Files.writeString(figures, line + System.lineSeparator(),
                    java.nio.charset.StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot append to " + figures.toAbsolutePath(), e);
        }
    }

    protected DSLContext dsl() {
        return DSL.using(pool, database().sqlDialect());
    }

    /** A handler that keeps what it received and acknowledges it. */
    protected static dev.tablequeue.broker.Handler<Order> into(List<Received> received) {
        return (order, d) -> {
            received.add(new Received(order.n(), d.headers()));
            return Outcome.ack();
        };
    }

    /** A fresh record table tracking "orders", an outbox on it, and a started transport whose handler keeps what it receives. */
    protected record Started(RecordTable records, Outbox outbox, TestTransport transport, List<Received> received) {}

    protected Started started() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        return new Started(t, outbox, transport, ordersInto(transport));
    }

    /** Subscribes a handler of one worker to "orders" that keeps what it receives, and starts the transport. */
    protected static List<Received> ordersInto(TestTransport transport) {
        List<Received> received = new CopyOnWriteArrayList<>();
        transport.subscribe("orders", Order.class, 1, into(received));
        transport.start();
        return received;
    }

    /**
     * Waits until the handler received order {@code marker}, published last under {@code name} by a
     * subscription of one worker: whatever was sent before it has been handled by then.
     */
    protected void publishMarkerAndAwait(TestTransport t, String name, List<Received> received, int marker) {
        t.publish(null, name, new Order(marker));
        await().atMost(PATIENCE).until(() -> received.stream().anyMatch(r -> r.n() == marker));
    }

    protected List<Integer> numbers(List<Received> received) {
        return received.stream().map(Received::n).toList();
    }

    protected long unprocessed(RecordTable t) {
        return dsl().fetchCount(t, t.PROCESSED_AT.isNull());
    }

    protected long records(RecordTable t) {
        return dsl().fetchCount(t);
    }

    /** Writes a record as a publish would, with {@code headers} as JSON text; its id. */
    protected long insertRecord(RecordTable t, String name, int n, String headersJson) {
        return dsl().insertInto(t).set(t.NAME, name)
                .set(t.PAYLOAD, ("{\"n\":" + n + "}").getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .set(t.HEADERS, headersJson).returning(t.ID).fetchOne().get(t.ID);
    }

    /** Sets processed_at of record {@code id} to {@code at}. */
    protected void processedAt(RecordTable t, long id, Instant at) {
        dsl().update(t).set(java.util.Map.<Field<?>, Object>of(t.PROCESSED_AT, dialect.timeValue(t.PROCESSED_AT, at)))
                .where(t.ID.eq(id)).execute();
    }

    protected List<Long> ids(RecordTable t) {
        return new ArrayList<>(dsl().select(t.ID).from(t).orderBy(t.ID).fetch(t.ID));
    }

    protected static String header(Record r, Field<String> f) {
        return r.get(f);
    }
}
