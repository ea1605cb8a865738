package dev.tablequeue.broker;

import static dev.tablequeue.binding.ExampleTables.REPORT_JOBS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * What a broker tells of its own state ({@link QueueBroker#isRunning()}, {@link QueueBroker#isListening()}),
 * and the {@link AfterCommit} hook a framework's transactions defer a publish's wake-up with.
 */
class BrokerStateIT {
    private static final RoleBinding<Record> REPORTS = RoleBinding.of(REPORT_JOBS, REPORT_JOBS.ID)
            .attempt(REPORT_JOBS.ATTEMPT).lease(REPORT_JOBS.LOCKED_UNTIL).payload(REPORT_JOBS.PAYLOAD).build();

    @Test
    void a_broker_runs_from_its_start_until_its_close_and_listens_only_with_notifications_on() {
        try (FreshDatabase db = FreshDatabase.create(Engine.SQLITE, "broker_state");
                HikariDataSource pool = db.pool(3)) {
            db.execute("CREATE TABLE report_jobs (id INTEGER PRIMARY KEY AUTOINCREMENT,"
                    + " attempt INTEGER NOT NULL DEFAULT 1, locked_until TEXT, payload BLOB NOT NULL)");
            QueueBroker broker = QueueBroker.builder(pool).build();
            broker.subscribe(InboxQueue.of(REPORTS, "reports")).bytes().handle((payload, d) -> Outcome.ack());
            assertThat(broker.isRunning()).isFalse();
            broker.start();
            assertThat(broker.isRunning()).isTrue();
            assertThat(broker.isListening()).isFalse();
            broker.close();
            assertThat(broker.isRunning()).isFalse();
        }
    }

    @Test
    void the_notification_listener_is_connected_while_the_broker_runs() {
        try (FreshDatabase db = FreshDatabase.create(Engine.POSTGRES, "broker_listening");
                HikariDataSource pool = db.pool(4)) {
            db.execute("CREATE TABLE report_jobs (id BIGSERIAL PRIMARY KEY, attempt SMALLINT NOT NULL DEFAULT 1,"
                    + " locked_until TIMESTAMPTZ, payload BYTEA NOT NULL)");
            QueueBroker broker = QueueBroker.builder(pool).listenNotify().build();
            broker.subscribe(InboxQueue.of(REPORTS, "reports")).bytes().handle((payload, d) -> Outcome.ack());
            assertThat(broker.isListening()).isFalse();
            broker.start();
            await().atMost(Duration.ofSeconds(10)).until(broker::isListening);
            broker.close();
            assertThat(broker.isListening()).isFalse();
        }
    }

    @Test
    void a_publish_in_a_transaction_only_the_hook_sees_wakes_its_subscription_when_the_hook_runs_the_wake_up()
            throws Exception {
        try (FreshDatabase db = FreshDatabase.create(Engine.SQLITE, "after_commit");
                HikariDataSource pool = db.pool(3)) {
            db.execute("CREATE TABLE report_jobs (id INTEGER PRIMARY KEY AUTOINCREMENT,"
                    + " attempt INTEGER NOT NULL DEFAULT 1, locked_until TEXT, payload BLOB NOT NULL)");
            List<Runnable> deferred = new CopyOnWriteArrayList<>();
            List<String> handled = new CopyOnWriteArrayList<>();
            // a poll far longer than the test: only a wake-up finds the row
            QueueBroker broker = QueueBroker.builder(pool).pollInterval(Duration.ofMinutes(10))
                    .afterCommit(deferred::add).build();
            broker.subscribe(InboxQueue.of(REPORTS, "reports")).bytes().handle((payload, d) -> {
                handled.add(new String(payload));
                return Outcome.ack();
            });
            broker.start();
            try (Connection c = pool.getConnection()) {
                c.setAutoCommit(false);
                broker.publisher().publish(DSL.using(c), REPORTS, Message.of("reports", "monthly"));
                assertThat(deferred).as("the wake-up the hook took").hasSize(1);
                c.commit();
            }
            deferred.forEach(Runnable::run);
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("\"monthly\""));

            // a publish that commits on its own wakes at once and asks the hook nothing
            broker.publisher().publish(REPORTS, Message.of("reports", "weekly"));
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("\"weekly\""));
            assertThat(deferred).hasSize(1);
            broker.close();
        }
    }
}
