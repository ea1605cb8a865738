package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * How long leases hold, how soon a row that returns to the queue is claimed again, what a failed settlement
 * tells the listener, and what the broker checks of its pool, on each database. Each database runs this
 * suite through a small subclass that names its {@link TestDatabase}; the tests are final.
 */
public abstract class LeaseAndWakeupContract extends BrokerFixture {

    // ================================================================ leases

    @Test
    public final void two_brokers_keep_one_second_leases_over_three_second_handlers_and_deliver_each_row_once() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        List<QueueBroker> two = List.of(leaseBroker(Duration.ofSeconds(1), settlementFailuresInto(failures)),
                leaseBroker(Duration.ofSeconds(1), settlementFailuresInto(failures)));
        for (QueueBroker broker : two) {
            broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(4).handle((job, d) -> {
                seen.merge(job.n(), 1, Integer::sum);
                // the work takes three leases' time; nothing waits on it
                Thread.sleep(3_000);
                return Outcome.ack();
            });
        }
        // six rows for eight workers: the two idle workers claim every poll, and would take a row whose lease
        // the keeper let lapse
        insertMany(t, "bulk", 6);
        two.forEach(QueueBroker::start);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 6);
        assertThat(seen).hasSize(6);
        assertThat(seen.values()).containsOnly(1);
        assertThat(failures).isEmpty();
    }

    private QueueBroker leaseBroker(Duration lease, BrokerListener listener) {
        QueueBroker broker = QueueBroker.builder(pool).clock(clock).pollInterval(POLL).lease(lease)
                .listener(listener).drainTimeout(Duration.ofSeconds(10)).build();
        brokers.add(broker);
        return broker;
    }
}
