package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ServedQueue;
import dev.tablequeue.test.FreshDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter on a real database, run by one small subclass per database: a broker from the application's
 * DataSource, started with the context; publishes that join a {@code @Transactional} method's transaction;
 * the handler bean; {@code tablequeue.*}'s settings; health; meters; the drain when the context closes.
 */
@ExtendWith(StarterDatabase.class)      // before @SpringBootTest: the database outlives the context
@SpringBootTest(classes = StarterTestApp.class, properties = {
    "tablequeue.poll-interval=30s",     // longer than any wait below: only a wake-up finds a row in time
    "tablequeue.lease=10s",
    "tablequeue.drain-timeout=20s",
    "tablequeue.workers=1",
    "tablequeue.queues.jobs.workers=3",
    "tablequeue.metrics.stats-every=1h"})
@DirtiesContext
abstract class StarterContract {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Autowired
    JobService jobs;
    @Autowired
    RecordingHandler handler;
    @Autowired
    QueueBroker broker;
    @Autowired
    InboxQueue<Record> queue;
    @Autowired
    JobTable table;
    @Autowired
    DSLContext dsl;
    @Autowired
    TableQueueProperties properties;
    @Autowired
    TableQueueHealthIndicator health;
    @Autowired
    MeterRegistry meters;
    @Autowired
    TransactionalPublisher publisher;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        StarterDatabase.properties(registry);
    }

    private int rows() {
        return dsl.fetchCount(table);
    }

    @Test
    final void the_broker_is_started_with_the_context_and_serves_the_handler_bean() {
        assertThat(broker.isRunning()).isTrue();
        assertThat(broker.queues()).extracting(ServedQueue::queue).containsExactly(queue);
    }

    @Test
    final void a_transactional_method_that_publishes_and_throws_leaves_no_row_and_runs_no_handler() {
        int before = rows();
        assertThatThrownBy(() -> jobs.publishThenFail("rolled-back")).isInstanceOf(IllegalStateException.class);
        assertThat(rows()).isEqualTo(before);

        // a job published after it is handled, and the rolled-back one never is
        jobs.publishAndCommit("after-the-rollback");
        await().atMost(WAIT).until(() -> handler.handled.contains("after-the-rollback"));
        assertThat(handler.handled).doesNotContain("rolled-back");
        assertThat(rows()).isEqualTo(before + 1);
    }

    @Test
    final void a_transactional_method_that_commits_has_its_job_handled_woken_at_the_commit() {
        boolean wakesAtCommit = jobs.publishAndCommit("committed");
        assertThat(wakesAtCommit).as("the wake-up waits for the transaction's commit").isTrue();
        // the poll interval is 30 s: the wake-up after the commit is what finds the row
        await().atMost(WAIT).until(() -> handler.handled.contains("committed"));
    }

    @Test
    final void a_publish_through_boots_dsl_context_joins_the_transaction_too() {
        int before = rows();
        assertThatThrownBy(() -> jobs.publishWithJooqThenFail("jooq-rolled-back"))
                .isInstanceOf(IllegalStateException.class);
        assertThat(rows()).isEqualTo(before);
        jobs.publishWithJooq("jooq-committed");
        await().atMost(WAIT).until(() -> handler.handled.contains("jooq-committed"));
        assertThat(handler.handled).doesNotContain("jooq-rolled-back");
    }

    @Test
    final void a_publish_outside_a_transaction_commits_on_its_own() {
        publisher.publish(queue.binding(), Message.of(queue.name(), new Job("on-its-own")));
        await().atMost(WAIT).until(() -> handler.handled.contains("on-its-own"));
    }

    @Test
    final void the_settings_under_tablequeue_bind_and_the_queues_own_win_over_the_handler_beans() {
        assertThat(properties.getPollInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(properties.getLease()).isEqualTo(Duration.ofSeconds(10));
        assertThat(properties.getDrainTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(properties.getWorkers()).isEqualTo(1);
        assertThat(properties.getMetrics().getStatsEvery()).isEqualTo(Duration.ofHours(1));
        // the handler bean configures 2 workers; tablequeue.queues.jobs.workers says 3
        assertThat(broker.queues()).singleElement().extracting(ServedQueue::workers).isEqualTo(3);
    }

    @Test
    final void health_is_up_while_the_broker_runs_and_gives_each_queues_oldest_pending_age() {
        broker.pause(queue);
        try {
            jobs.publishAndCommit("waiting");
            // a row of an earlier test whose acknowledgement is not written yet counts as pending too
            await().atMost(WAIT).untilAsserted(() -> {
                Health h = health.health();
                assertThat(h.getStatus()).isEqualTo(Status.UP);
                assertThat(h.getDetails()).containsEntry("running", true);
                @SuppressWarnings("unchecked")
                Map<String, Map<String, Object>> queues = (Map<String, Map<String, Object>>) h.getDetails()
                        .get("queues");
                assertThat(queues).containsOnlyKeys(queue.toString());
                assertThat((Long) queues.get(queue.toString()).get("pending")).isGreaterThanOrEqualTo(1L);
                assertThat(queues.get(queue.toString())).containsKey("oldestPendingAge");
            });
        } finally {
            broker.resume(queue);
        }
        await().atMost(WAIT).until(() -> handler.handled.contains("waiting"));
    }

    @Test
    final void the_queues_meters_are_registered_in_the_applications_meter_registry() {
        jobs.publishAndCommit("counted");
        await().atMost(WAIT).until(() -> handler.handled.contains("counted"));
        String name = queue.binding().tableName();
        await().atMost(WAIT).ignoreExceptions().until(() -> meters.get("tablequeue.deliveries.settled")
                .tags("table", name, "queue", queue.name(), "outcome", "acknowledged").counter().count() >= 1);
        assertThat(meters.get("tablequeue.deliveries.claimed").tags("table", name, "queue", queue.name()).counter()
                .count()).isGreaterThanOrEqualTo(1);
        assertThat(meters.find("tablequeue.rows.pending").tags("table", name, "queue", queue.name()).gauge())
                .isNotNull();
    }

    /** A second application on the suite's database, serving queue {@code queue} of the job table. */
    private ConfigurableApplicationContext secondApplication(String queue, String... settings) {
        FreshDatabase db = StarterDatabase.current();
        List<String> args = new ArrayList<>(List.of("--spring.datasource.url=" + StarterDatabase.url(db),
                "--test.engine=" + db.engine().name(), "--test.queue=" + queue, "--tablequeue.lease=5s",
                "--tablequeue.listen-notify=" + properties.isListenNotify()));
        for (String setting : settings) {
            args.add("--" + setting);
        }
        return new SpringApplicationBuilder(StarterTestApp.class).web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }

    @Test
    final void a_subscription_a_handlers_error_stopped_turns_health_down() {
        try (ConfigurableApplicationContext app = secondApplication("fatal")) {
            TableQueueHealthIndicator fatalHealth = app.getBean(TableQueueHealthIndicator.class);
            assertThat(fatalHealth.health().getStatus()).isEqualTo(Status.UP);
            app.getBean(TransactionalPublisher.class).publish(table.binding(), Message.of("fatal", new Job("fatal-1")));
            // the Error goes on up the handler's thread, as it should: not a failure of this test
            await().atMost(WAIT).dontCatchUncaughtExceptions()
                    .until(() -> fatalHealth.health().getStatus().equals(Status.DOWN));
            assertThat(fatalHealth.health().getDetails()).containsEntry("running", true)
                    .extractingByKey("stopped").asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsOnlyKeys(table.binding().tableName() + "/fatal");
        }
    }

    @Test
    final void closing_the_context_lets_a_handler_in_work_finish_and_acknowledges_its_row() throws Exception {
        ConfigurableApplicationContext app = secondApplication("drain", "tablequeue.drain-timeout=30s");
        RecordingHandler slow = app.getBean(RecordingHandler.class);
        QueueBroker drained = app.getBean(QueueBroker.class);
        TableQueueHealthIndicator drainedHealth = app.getBean(TableQueueHealthIndicator.class);
        TableQueueLifecycle lifecycle = app.getBean(TableQueueLifecycle.class);
        app.getBean(TransactionalPublisher.class).publish(table.binding(), Message.of("drain", new Job("slow-1")));
        assertThat(slow.slowStarted.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(drainedHealth.health().getStatus()).isEqualTo(Status.UP);

        Thread closing = new Thread(app::close, "closing the context");
        closing.start();
        await().atMost(WAIT).until(() -> !drained.isRunning());
        // the broker claims no more, and the close waits for the handler in work
        assertThat(closing.isAlive()).isTrue();
        assertThat(drainedHealth.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(drainedHealth.health().getDetails()).containsEntry("running", false);

        slow.releaseSlow.countDown();
        closing.join(WAIT.toMillis());
        assertThat(closing.isAlive()).isFalse();
        assertThat(slow.handled).containsExactly("slow-1");
        assertThat(lifecycle.shutdownReport().deliveriesAbandoned()).isZero();
        OffsetDateTime processed = dsl.select(table.PROCESSED_AT).from(table).where(table.GRP.eq("drain"))
                .fetchSingle(table.PROCESSED_AT);
        assertThat(processed).as("the drained job's row is acknowledged").isNotNull();
        assertThat(handler.handled).doesNotContain("slow-1");
    }
}
