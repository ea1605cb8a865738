package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.DeclarationException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Record;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * LISTEN/NOTIFY on PostgreSQL: a notification wakes a subscription whose poll interval is an hour, whoever
 * sends it, and a listener that loses its connection listens again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresNotifyIT {
    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final AtomicInteger TABLES = new AtomicInteger();

    private FreshDatabase db;
    private HikariDataSource pool;
    private final List<QueueBroker> brokers = new CopyOnWriteArrayList<>();

    @BeforeAll
    void open() {
        db = FreshDatabase.create(Engine.POSTGRES, "notify");
        pool = db.pool(10);
    }

    @AfterEach
    void closeBrokers() {
        brokers.forEach(QueueBroker::close);
        brokers.clear();
    }

    @AfterAll
    void close() {
        pool.close();
        db.close();
    }

    private Jobs newTable() {
        String name = "notified" + TABLES.incrementAndGet();
        db.execute(TestDatabase.POSTGRES.createTable(name));
        return new Jobs(name, SQLDataType.TIMESTAMPWITHTIMEZONE(6));
    }

    private QueueBroker listening() {
        QueueBroker broker = QueueBroker.builder(pool).pollInterval(HOUR).listenNotify().build();
        brokers.add(broker);
        return broker;
    }

    @Test
    void a_notification_from_another_writer_wakes_the_subscription_of_its_group() {
        Jobs t = newTable();
        RoleBinding<Record> b = Jobs.binding(t, Form.ROW_LOCK);
        QueueBroker broker = listening();
        List<String> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).bytes().handle((payload, d) -> {
            handled.add(new String(payload));
            return Outcome.ack();
        });
        broker.start();
        // the broker's first claims found nothing; the next poll is an hour away
        db.execute("INSERT INTO " + t.getName() + " (grp, payload) VALUES ('emails', '\\x7b7d')",
                "SELECT pg_notify('" + t.getName() + "', 'emails')");
        await().atMost(PATIENCE).until(() -> handled.size() == 1);
    }

    @Test
    void a_publish_through_one_broker_wakes_a_listening_broker_elsewhere() {
        Jobs t = newTable();
        RoleBinding<Record> b = Jobs.binding(t, Form.LEASE);
        QueueBroker consumer = listening();
        AtomicInteger handled = new AtomicInteger();
        consumer.subscribe(InboxQueue.of(b, "emails")).bytes().handle((payload, d) -> {
            handled.incrementAndGet();
            return Outcome.ack();
        });
        consumer.start();
        QueueBroker producer = listening();
        producer.start();
        producer.publisher().publish(b, Message.of("emails", "{}".getBytes()));
        await().atMost(PATIENCE).until(() -> handled.get() == 1);
    }

    @Test
    void a_listener_that_loses_its_connection_listens_again() {
        Jobs t = newTable();
        RoleBinding<Record> b = Jobs.binding(t, Form.ROW_LOCK);
        QueueBroker broker = listening();
        AtomicInteger handled = new AtomicInteger();
        broker.subscribe(InboxQueue.of(b, "emails")).bytes().handle((payload, d) -> {
            handled.incrementAndGet();
            return Outcome.ack();
        });
        broker.start();
        await().atMost(PATIENCE).until(() -> listeners() == 1);
        db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
                + " AND datname = current_database()");
        await().atMost(PATIENCE).until(() -> listeners() == 1);
        db.execute("INSERT INTO " + t.getName() + " (grp, payload) VALUES ('emails', '\\x7b7d')",
                "SELECT pg_notify('" + t.getName() + "', 'emails')");
        await().atMost(PATIENCE).until(() -> handled.get() == 1);
    }

    @Test
    void a_channel_name_over_63_bytes_stops_the_start() {
        String name = "q".repeat(64);
        Jobs t = new Jobs(name, SQLDataType.TIMESTAMPWITHTIMEZONE(6));
        QueueBroker broker = listening();
        broker.subscribe(InboxQueue.of(Jobs.binding(t, Form.LEASE), "emails")).bytes()
                .handle((payload, d) -> Outcome.ack());
        assertThatThrownBy(broker::start).isInstanceOf(DeclarationException.class)
                .hasMessageContaining(name)
                .hasMessageContaining("63");
    }

    /** Connections of this database listening now: a LISTEN is the last statement they ran. */
    private long listeners() {
        try (var c = db.connect(); var s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
                        + " AND datname = current_database() AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
