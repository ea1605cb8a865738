package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.micrometer.TableQueueMetrics;
import dev.tablequeue.test.contract.Jobs;
import io.micrometer.core.instrument.search.RequiredSearch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Micrometer meters of a broker's queues, read from a {@link SimpleMeterRegistry}, on each database.
 * Per-database classes name their {@link TestDatabase}.
 */
public abstract class MetricsContract extends AdminFixture {

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void each_claimed_row_and_each_written_outcome_is_counted_once_by_its_kind(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TableQueueMetrics metrics = TableQueueMetrics.builder(registry).build();
        QueueBroker broker = broker(metrics);
        // by n % 4: acknowledged; retried once then acknowledged; dropped; retried until it is dead-lettered
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(3).maxAttempts(2)
                .deadLetter("escalated").handle((job, d) -> switch (job.n() % 4) {
                    case 0 -> Outcome.ack();
                    case 1 -> d.attempt().orElseThrow() == 1 ? Outcome.retry() : Outcome.ack();
                    case 2 -> Outcome.drop();
                    default -> Outcome.retryAfter(Duration.ZERO);
                });
        if (!startsOrIsRefused(broker, form)) {
            return;
        }
        publish(broker, b, "emails", 8);
        insertRaw(t, "emails", "not json".getBytes());

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(settled(registry, t, "acknowledged")).isEqualTo(4);
            assertThat(settled(registry, t, "dropped")).isEqualTo(2);
            assertThat(settled(registry, t, "dead_lettered")).isEqualTo(3);
        });
        // the two retries that spent the last attempt, and the row that does not decode (the decode policy's
        // default moves it to the declared dead letter), are counted as dead letters, not as retries or drops
        assertThat(settled(registry, t, "retried")).isEqualTo(4);
        assertThat(meter(registry, "tablequeue.deliveries.claimed", t).counter().count()).isEqualTo(13);
        assertThat(meter(registry, "tablequeue.deliveries.decode.failures", t).counter().count()).isEqualTo(1);
        assertThat(meter(registry, "tablequeue.deliveries.settlement.failures", t).counter().count()).isZero();
        assertThat(meter(registry, "tablequeue.handler", t).timer().count()).isEqualTo(13);
        assertThat(meter(registry, "tablequeue.claims", t).timer().count()).isPositive();
        assertThat(count(t, "grp = 'escalated'")).isEqualTo(3);
    }

    @Test
    public final void the_gauges_read_pending_scheduled_and_dead_rows_and_the_oldest_age_by_a_periodic_query() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TableQueueMetrics metrics = TableQueueMetrics.builder(registry).statsEvery(Duration.ofMillis(100)).build();
        QueueBroker broker = broker(metrics);
        broker.subscribe(queue).payload(Job.class).maxAttempts(3).deadLetter("escalated")
                .handle((job, d) -> Outcome.ack());
        // paused, so the rows stay as they were written
        broker.pause(queue);
        broker.start();
        insertRow(t, "emails", NOW.minusSeconds(120), 1);
        insertRow(t, "emails", NOW.minusSeconds(60), 2);
        insertRow(t, "emails", NOW.plusSeconds(600), 1);
        insertRow(t, "escalated", NOW.minusSeconds(900), 3);

        try (metrics) {
            metrics.bind(broker);
            assertThat(meter(registry, "tablequeue.rows.pending", t).gauge().value()).isEqualTo(2);
            assertThat(meter(registry, "tablequeue.rows.scheduled", t).gauge().value()).isEqualTo(1);
            assertThat(meter(registry, "tablequeue.rows.dead", t).gauge().value()).isEqualTo(1);
            assertThat(meter(registry, "tablequeue.rows.pending.age", t).timeGauge().value(TimeUnit.SECONDS))
                    .isEqualTo(120);

            // a row comes in: the next periodic query sees it, with no call of the test's own
            insertRow(t, "emails", NOW.minusSeconds(300), 1);
            await().atMost(PATIENCE).untilAsserted(() -> {
                assertThat(meter(registry, "tablequeue.rows.pending", t).gauge().value()).isEqualTo(3);
                assertThat(meter(registry, "tablequeue.rows.pending.age", t).timeGauge().value(TimeUnit.SECONDS))
                        .isEqualTo(300);
            });
        }
    }

    @Test
    public final void a_lost_lease_is_counted_once_and_the_gauge_counts_the_delivery_in_work_until_then()
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TableQueueMetrics metrics = TableQueueMetrics.builder(registry).build();
        QueueBroker broker = broker(metrics);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        broker.subscribe(queue).payload(Job.class).lease(Duration.ofSeconds(2)).handle((job, d) -> {
            entered.countDown();
            release.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            return Outcome.ack();
        });
        broker.start();
        try (metrics) {
            metrics.bind(broker);
            long id = insertJobs(t, 1).get(0);
            assertThat(entered.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(meter(registry, "tablequeue.deliveries.in.work", t).gauge().value()).isEqualTo(1);

            // another claim's lease on the row: the keeper's next extension finds it
            setTime(t, id, "locked_until", NOW.plus(Duration.ofHours(1)));
            await().atMost(PATIENCE).until(() -> meter(registry, "tablequeue.leases.lost", t).counter().count() == 1);
            release.countDown();

            await().atMost(PATIENCE).until(() ->
                    meter(registry, "tablequeue.deliveries.settlement.failures", t).counter().count() == 1);
            assertThat(meter(registry, "tablequeue.leases.lost", t).counter().count()).isEqualTo(1);
            assertThat(meter(registry, "tablequeue.deliveries.in.work", t).gauge().value()).isZero();
        }
    }

    private static RequiredSearch meter(SimpleMeterRegistry registry, String name, Jobs t) {
        return registry.get(name).tag("table", t.getName()).tag("queue", "emails");
    }

    private static double settled(SimpleMeterRegistry registry, Jobs t, String outcome) {
        return meter(registry, "tablequeue.deliveries.settled", t).tag("outcome", outcome).counter().count();
    }
}
