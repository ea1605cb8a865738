package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.DeclarationException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.test.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What every broker suite shares: a database of its own per test class (from the hook's
 * {@link ContractDatabase#open}), a pool on it, a settable clock, fresh {@link Jobs} tables, bindings, brokers
 * (from the hook's {@link ContractDatabase#broker}) closed after each test, and the statements a test reads the
 * table with. A suite extends this; its per-database classes only name their {@link ContractDatabase}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BrokerFixture {
    protected static final AtomicInteger TABLES = new AtomicInteger();
    /** How long a test waits for something the broker does asynchronously. */
    protected static final Duration PATIENCE = Duration.ofSeconds(30);
    /** The poll interval of the brokers under test: short, so a test never waits long for a claim. */
    protected static final Duration POLL = Duration.ofMillis(50);

    /** The job a payload carries. */
    public record Job(int n, String kind) {}

    /** The database and the dialect this class runs on. */
    protected abstract ContractDatabase database();

    protected final Engine engine() {
        return database().engine();
    }

    protected final DataType<? extends Temporal> timeType() {
        return database().timeType();
    }

    /** The DDL of a {@link Jobs} table named {@code name} on this database. */
    protected final String createTable(String name) {
        return database().createTable(name);
    }

    /** The forms this database takes. */
    protected final Set<Form> forms() {
        return database().forms();
    }

    protected FreshDatabase db;
    protected HikariDataSource pool;
    protected final SettableClock clock = new SettableClock();
    /** Every broker a test made; each is closed after the test. */
    protected final List<QueueBroker> brokers = new CopyOnWriteArrayList<>();

    @BeforeAll
    protected final void openDatabase() {
        db = database().open("broker_" + getClass().getSimpleName());
        pool = db.pool(12);
    }

    @AfterEach
    protected final void closeBrokers() {
        for (QueueBroker b : brokers) {
            b.close();
        }
        brokers.clear();
    }

    @AfterAll
    protected final void closeDatabase() {
        if (pool != null) {
            pool.close();
        }
        if (db != null) {
            db.close();
        }
    }

    /** The row lock and lease forms, where this database takes them (a {@code @MethodSource}). */
    protected final List<Form> rowLockAndLease() {
        return forms().stream().filter(f -> f != Form.ADVISORY).toList();
    }

    /** The row lock and advisory forms, where this database takes them (a {@code @MethodSource}). */
    protected final List<Form> rowLockAndAdvisory() {
        return forms().stream().filter(f -> f != Form.LEASE).toList();
    }

    protected Form preferredForm() {
        return forms().contains(Form.ROW_LOCK) ? Form.ROW_LOCK : Form.LEASE;
    }

    protected Jobs newTable() {
        String name = "jobs" + TABLES.incrementAndGet();
        db.execute(createTable(name));
        return new Jobs(name, timeType());
    }

    /** A payload-mode binding of {@code t} with every role, in {@code form}. */
    protected RoleBinding<Record> binding(Jobs t, Form form) {
        return Jobs.binding(t, form);
    }

    /** As {@link #binding}, leaving out the role played by column {@code left}. */
    protected RoleBinding<Record> bindingWithout(Jobs t, Form form, String left) {
        RoleBinding.Builder<Record> b = RoleBinding.of(t, t.ID);
        if (!left.equals("grp")) {
            b.group(t.GRP);
        }
        b.priority(t.PRIORITY);
        if (!left.equals("retry_after")) {
            b.retryAfter(t.RETRY_AFTER);
        }
        if (!left.equals("attempt")) {
            b.attempt(t.ATTEMPT);
        }
        if (!left.equals("processed_at")) {
            b.processedAt(t.PROCESSED_AT);
        }
        b.payload(t.PAYLOAD);
        switch (form) {
            case LEASE -> b.lease(t.LOCKED_UNTIL);
            case ADVISORY -> b.advisory(t.getName() + "-{id}");
            case ROW_LOCK -> { }
        }
        return b.build();
    }

    /**
     * {@code builder} (a binding of {@code t} under construction) completed in {@code form}: as it is for a row
     * lock, with {@code t}'s lease column for a lease, and with the key {@code <table>-{id}} for an advisory lock.
     */
    protected static RoleBinding<Record> inForm(RoleBinding.Builder<Record> builder, Jobs t, Form form) {
        return switch (form) {
            case ROW_LOCK -> builder.build();
            case LEASE -> builder.lease(t.LOCKED_UNTIL).build();
            case ADVISORY -> builder.advisory(t.getName() + "-{id}").build();
        };
    }

    /**
     * What most tests start from: a fresh {@link Jobs} table, a binding of it, and a broker of the suite's
     * settings (closed after the test). Its {@link #emails()} subscribes to the table's "emails" group.
     */
    protected final class Queue {
        /** The table. */
        public final Jobs t;
        /** The binding of {@link #t}. */
        public final RoleBinding<Record> b;
        /** The broker, not yet started. */
        public final QueueBroker broker;

        private Queue(Jobs t, RoleBinding<Record> b, QueueBroker broker) {
            this.t = t;
            this.b = b;
            this.broker = broker;
        }

        /** The subscription to the "emails" queue in payload mode, to be given its handler. */
        public Mount<Job> emails() {
            return broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class);
        }

        /** Starts the broker. */
        public Queue start() {
            broker.start();
            return this;
        }

        /** Publishes {@code n} jobs into the "emails" group, each on a connection of its own. */
        public Queue publish(int n) {
            BrokerFixture.this.publish(broker, b, "emails", n);
            return this;
        }

        /** The rows of the table that meet {@code condition} (SQL). */
        public long count(String condition) {
            return BrokerFixture.this.count(t, condition);
        }

        /** Waits until {@code n} rows of the table are processed. */
        public void awaitProcessed(int n) {
            awaitCount(t, "processed_at is not null", n);
        }
    }

    /** A fresh table bound with every role in {@code form}, and a broker. */
    protected Queue queue(Form form) {
        return queue(form, new BrokerListener() {});
    }

    /** As {@link #queue(Form)}, with a broker that tells {@code listener}. */
    protected Queue queue(Form form, BrokerListener listener) {
        return queue(t -> binding(t, form), listener);
    }

    /** As {@link #queue(Form)}, with a broker of {@code settings} of the test's own over the suite's. */
    protected Queue queue(Form form, UnaryOperator<QueueBroker.Builder> settings) {
        Jobs t = newTable();
        return new Queue(t, binding(t, form), broker(new BrokerListener() {}, settings));
    }

    /** A fresh table, the binding {@code bind} makes of it, and a broker that tells {@code listener}. */
    protected Queue queue(Function<Jobs, RoleBinding<Record>> bind, BrokerListener listener) {
        Jobs t = newTable();
        return new Queue(t, bind.apply(t), broker(listener));
    }

    /** A fresh table, the binding {@code bind} makes of it, and a broker. */
    protected Queue queue(Function<Jobs, RoleBinding<Record>> bind) {
        return queue(bind, new BrokerListener() {});
    }

    /** Waits until {@code n} rows of {@code t} meet {@code condition} (SQL). */
    protected void awaitCount(Jobs t, String condition, long n) {
        await().atMost(PATIENCE).until(() -> count(t, condition) == n);
    }

    protected QueueBroker broker() {
        return broker(new BrokerListener() {});
    }

    protected QueueBroker broker(BrokerListener listener) {
        return broker(listener, settings -> settings);
    }

    /** As {@link #broker(BrokerListener)}, with {@code settings} of the test's own over the suite's. */
    protected QueueBroker broker(BrokerListener listener, UnaryOperator<QueueBroker.Builder> settings) {
        QueueBroker broker = settings.apply(database().broker(pool).clock(clock).pollInterval(POLL)
                .listener(listener).drainTimeout(Duration.ofSeconds(10))).build();
        brokers.add(broker);
        return broker;
    }

    /** Starts {@code broker}; where the database does not take {@code form}, asserts the start is refused. */
    protected boolean startsOrIsRefused(QueueBroker broker, Form form) {
        if (forms().contains(form)) {
            broker.start();
            return true;
        }
        assertThatThrownBy(broker::start).isInstanceOf(TableQueueException.class)
                .hasMessageContaining(form.name().toLowerCase().replace('_', ' '));
        return false;
    }

    protected void assertRefused(RoleBinding<Record> b, java.util.function.Function<dev.tablequeue.broker.Subscribe<Record>,
            dev.tablequeue.broker.Mount<?>> mount, String why) {
        QueueBroker broker = broker();
        mount.apply(broker.subscribe(InboxQueue.of(b, "emails"))).handle((m, d) -> Outcome.ack());
        assertThatThrownBy(broker::start).isInstanceOf(DeclarationException.class)
                .hasMessageContaining("emails")
                .hasMessageContaining(why);
    }

    protected void publish(QueueBroker broker, RoleBinding<Record> b, String group, int n) {
        for (int i = 0; i < n; i++) {
            broker.publisher().publish(b, Message.of(group, new Job(i, "mail")));
        }
    }

    protected DSLContext dsl() {
        return DSL.using(pool, engine().sqlDialect());
    }

    protected long count(Jobs t, String condition) {
        return dsl().fetchCount(t, DSL.condition(condition));
    }

    /** Inserts {@code n} jobs of the "emails" group with payloads as the publisher writes them; their ids in order. */
    protected List<Long> insertJobs(Jobs t, int n) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(insertRaw(t, "emails", ("{\"n\":" + i + ",\"kind\":\"mail\"}").getBytes()));
        }
        return ids;
    }

    /** A listener that keeps each failed settlement's failure by delivery id. */
    protected static BrokerListener settlementFailuresInto(Map<Object, Throwable> failures) {
        return new BrokerListener() {
            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failures.put(delivery.id(), failure);
            }
        };
    }

    protected long insertRaw(Jobs t, String group, byte[] payload) {
        return dsl().insertInto(t).set(t.GRP, group).set(t.PAYLOAD, payload).returning(t.ID).fetchOne().get(t.ID);
    }

    protected void insertMany(Jobs t, String group, int n) {
        List<org.jooq.Query> inserts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            inserts.add(dsl().insertInto(t).set(t.GRP, group)
                    .set(t.PAYLOAD, ("{\"n\":" + i + ",\"kind\":\"bulk\"}").getBytes()));
        }
        dsl().batch(inserts).execute();
    }

    protected Instant lockedUntil(Jobs t) {
        Object value = dsl().select(t.LOCKED_UNTIL).from(t).fetchOne(0);
        if (value instanceof java.time.OffsetDateTime odt) {
            return odt.toInstant();
        }
        if (value instanceof java.time.LocalDateTime ldt) {
            return ldt.toInstant(java.time.ZoneOffset.UTC);
        }
        return Instant.MIN;
    }
}
