package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pausing and resuming a subscription at run time, on each database and in every form it takes: a paused
 * subscription claims nothing while its deliveries in work finish and settle, and a resumed one claims at
 * once. Per-database classes name their {@link TestDatabase}. The clock stands years ahead of the rows'
 * default due times, so a row is due the moment it is written (a host clock a millisecond behind the
 * database's would otherwise leave it for the next poll).
 */
public abstract class PauseContract extends AdminFixture {
    /** Long enough to show a paused subscription claims nothing: many poll intervals. */
    private static final Duration QUIET = POLL.multipliedBy(10);

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_paused_subscription_claims_nothing_while_its_deliveries_in_work_finish_and_settle(Form form)
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        AtomicInteger claimedAfterPause = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean paused = new AtomicBoolean();
        QueueBroker broker = broker(new BrokerListener() {
            @Override
            public void claimed(InboxQueue<?> q, int rows, Duration took) {
                if (paused.get()) {
                    claimedAfterPause.addAndGet(rows);
                }
            }
        });
        broker.subscribe(queue).payload(Job.class).workers(2).handle((job, d) -> {
            started.incrementAndGet();
            release.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            return Outcome.ack();
        });
        if (!startsOrIsRefused(broker, form)) {
            return;
        }
        publish(broker, b, "emails", 5);
        await().atMost(PATIENCE).until(() -> started.get() == 2);

        broker.pause(queue);
        paused.set(true);
        assertThat(broker.isPaused(queue)).isTrue();
        assertThat(broker.inWork(queue)).isEqualTo(2);
        release.countDown();

        // the two in work settle; nothing more is claimed, for many poll intervals
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 2);
        await().during(QUIET).atMost(PATIENCE).until(() -> started.get() == 2 && broker.inWork(queue) == 0);
        assertThat(claimedAfterPause).hasValue(0);
        assertThat(count(t, "processed_at is null")).isEqualTo(3);

        broker.resume(queue);
        assertThat(broker.isPaused(queue)).isFalse();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 5);
    }

    @Test
    public final void a_resumed_subscription_claims_at_once_rather_than_at_its_next_poll() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        QueueBroker broker = broker();
        // a poll interval no test waits out: only the resume's wake-up can bring the claim
        broker.subscribe(queue).payload(Job.class).pollInterval(Duration.ofHours(1)).handle((job, d) -> Outcome.ack());
        broker.start();
        broker.pause(queue);
        insertJobs(t, 3);

        broker.resume(queue);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 3);
    }

    @Test
    public final void a_subscription_paused_before_the_start_starts_paused() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        QueueBroker broker = broker();
        broker.subscribe(queue).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.pause(queue);
        broker.start();
        publish(broker, b, "emails", 2);

        await().during(QUIET).atMost(PATIENCE).until(() -> count(t, "processed_at is null") == 2);
        broker.resume(queue);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 2);
    }

    @Test
    public final void pausing_a_queue_the_broker_does_not_serve_names_the_queue() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();

        assertThatThrownBy(() -> broker.pause(InboxQueue.of(b, "invoices")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(t.getName() + "/invoices");
    }
}
