package dev.tablequeue.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jooq.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The kit on one engine: the database it makes, the waits and the assertions, against a real broker. */
abstract class KitContract {
    static final Duration PATIENCE = Duration.ofSeconds(20);

    /** The subclass's extension, registered in its static field. */
    abstract TableQueueDatabase db();

    private KitJobs t;
    private RoleBinding<Record> binding;
    private InboxQueue<Record> queue;
    private QueueWatch watch;
    private QueueBroker broker;

    @BeforeEach
    void setUp() {
        t = new KitJobs(db().engine());
        binding = t.binding();
        queue = InboxQueue.of(binding, "work");
        db().dsl().deleteFrom(t).execute();
        watch = new QueueWatch();
        broker = QueueBroker.builder(db().dataSource()).pollInterval(Duration.ofMillis(50))
                .lease(Duration.ofSeconds(30)).listener(watch).build();
    }

    @AfterEach
    void tearDown() {
        broker.close();
    }

    @Test
    void the_class_gets_a_database_of_its_own_migrated_from_the_given_locations() throws Exception {
        assertThat(db().name()).startsWith(FreshDatabase.prefix().toLowerCase() + "kit_")
                .contains(getClass().getSimpleName().toLowerCase());
        assertThat(db().migrationsApplied()).isEqualTo(1);
        assertThat(db().url()).contains(db().name());
        try (Connection c = db().dataSource().getConnection();
                ResultSet tables = c.getMetaData().getTables(null, null, "kit_jobs", null)) {
            assertThat(tables.next()).as("kit_jobs in " + db()).isTrue();
        }
        assertThat(db().dsl().fetchCount(t)).isZero();
        // the outbox reads it to stay off under the kit
        assertThat(System.getProperty(TableQueueDatabase.TEST_KIT_PROPERTY)).isEqualTo("true");
    }

    @Test
    void a_wait_returns_once_the_queue_is_idle_and_the_assertions_read_what_it_holds() {
        broker.subscribe(queue).payload(String.class).handle((job, d) -> Outcome.ack());
        broker.start();
        for (String job : List.of("a", "b", "c")) {
            broker.publisher().publish(binding, Message.of("work", job));
        }

        watch.awaitIdle(broker, queue, PATIENCE);
        watch.awaitSettlements(3, PATIENCE);

        QueueAdmin admin = QueueAdmin.of(broker);
        QueueAssertions.assertQueue(admin, queue).hasPending(0).hasScheduled(0).hasProcessed(3).hasInWork(0);
        for (Long id : db().dsl().select(t.ID).from(t).fetch(t.ID)) {
            assertThat(watch.awaitAcknowledged(id, PATIENCE).attempt()).isEqualTo(1);
            // the lease claim counted the attempt as it took the row
            QueueAssertions.assertRow(db().dsl(), binding, id).isProcessed().hasAttemptColumn(2).isInGroup("work");
        }
        assertThat(watch.problems()).isEmpty();
    }

    @Test
    void a_retried_row_is_waited_for_until_its_acknowledgement_and_its_attempts_are_read_from_the_table() {
        Map<Integer, Integer> byAttempt = new ConcurrentHashMap<>();
        broker.subscribe(queue).payload(String.class).handle((job, d) -> {
            int attempt = d.attempt().orElseThrow();
            byAttempt.merge(attempt, 1, Integer::sum);
            return attempt == 1 ? Outcome.retry() : Outcome.ack();
        });
        broker.start();
        broker.publisher().publish(binding, Message.of("work", "twice"));
        Long id = db().dsl().select(t.ID).from(t).fetchSingle(t.ID);

        QueueWatch.Settled acknowledged = watch.awaitAcknowledged(id, PATIENCE);

        assertThat(acknowledged.attempt()).isEqualTo(2);
        assertThat(watch.settlements()).filteredOn(s -> s.isOf(id)).extracting(QueueWatch.Settled::outcome)
                .containsExactly(Outcome.retry(), Outcome.ack());
        assertThat(byAttempt).containsExactlyInAnyOrderEntriesOf(Map.of(1, 1, 2, 1));
        QueueAssertions.assertRow(db().dsl(), binding, id).isProcessed().hasAttemptColumn(3);
    }

    @Test
    void an_assertion_that_does_not_hold_names_the_table_the_queue_and_what_it_found() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        broker.subscribe(queue).payload(String.class).handle((job, d) -> {
            hold.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            return Outcome.ack();
        });
        broker.publisher().publish(binding, Message.of("work", "waiting"));
        Long id = db().dsl().select(t.ID).from(t).fetchSingle(t.ID);
        QueueAdmin admin = QueueAdmin.of(broker);

        assertThatThrownBy(() -> QueueAssertions.assertQueue(admin, queue).hasPending(0))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("queue \"work\" of kit_jobs: expected 0 row(s) pending, found 1");
        assertThatThrownBy(() -> QueueAssertions.assertRow(db().dsl(), binding, id).isProcessed())
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("row " + id + " of kit_jobs: expected it to be processed, but its processed_at"
                        + " is NULL");
        assertThatThrownBy(() -> QueueAssertions.assertRow(db().dsl(), binding, id + 1000))
                .hasMessageContaining("kit_jobs has no row whose id is " + (id + 1000));
        assertThatThrownBy(() -> QueueAssertions.assertQueue(admin, queue).hasDead(0))
                .hasMessageContaining("no dead letter was read");
        QueueAssertions.assertQueue(admin, queue, DeadLetter.group("dead")).hasDead(0).hasRowsAtAttempt(1, 1);
        hold.countDown();
    }

    @Test
    void a_wait_that_times_out_says_what_it_saw() {
        broker.publisher().publish(binding, Message.of("work", "never claimed"));

        assertThatThrownBy(() -> watch.awaitIdle(broker, queue, Duration.ofMillis(300)))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("was not idle within PT0.3S: 1 row(s) pending, 0 in work");
        assertThatThrownBy(() -> watch.awaitSettled(42L, Duration.ofMillis(200)))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("row 42 did not get an outcome within PT0.2S");
    }
}
