package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Record;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code workersByKey(n)}: the rows of one partition key run one at a time and in id order, on one broker or
 * several, while rows of other keys run beside them; a retried row holds its key; a declaration the table
 * cannot carry is refused when the broker starts.
 */
public abstract class KeyOrderContract extends BrokerFixture {

    /** Every role, with the partition key, in {@code form}. */
    private static RoleBinding<Record> keyed(Jobs t, Form form) {
        return inForm(RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).partitionKey(t.PARTITION_KEY)
                .retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD), t, form);
    }

    /** Inserts one "emails" row per key in {@code keys}, in that order; their ids. */
    private List<Long> insertKeyed(Jobs t, List<String> keys) {
        List<org.jooq.Query> inserts = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            inserts.add(dsl().insertInto(t).set(t.GRP, "emails").set(t.PARTITION_KEY, keys.get(i))
                    .set(t.PAYLOAD, ("{\"n\":" + i + ",\"kind\":\"mail\"}").getBytes()));
        }
        dsl().batch(inserts).execute();
        return dsl().select(t.ID).from(t).orderBy(t.ID).fetch(t.ID);
    }

    /**
     * 10 keys x 50 rows, inserted in a shuffled order so that rows of one key sit side by side, served by two
     * brokers of four workers each: no key ever has two rows in work at once, each key's rows are handled in
     * id order, every row once. (That keys run side by side is the next test's: here a handler is too short
     * to be sure two of them overlap.)
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void ten_keys_of_fifty_rows_run_each_key_in_order_over_two_brokers_of_four_workers(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = keyed(t, form);
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            for (int i = 0; i < 50; i++) {
                keys.add("customer-" + k);
            }
        }
        Collections.shuffle(keys, new Random(7));
        insertKeyed(t, keys);
        Map<Object, AtomicInteger> inWork = new ConcurrentHashMap<>();
        Map<Object, List<Long>> handled = new ConcurrentHashMap<>();
        AtomicInteger mostOfOneKey = new AtomicInteger();
        List<QueueBroker> two = List.of(broker(), broker());
        for (QueueBroker broker : two) {
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workersByKey(4).handle((job, d) -> {
                int ofKey = inWork.computeIfAbsent(d.partitionKey(), k -> new AtomicInteger()).incrementAndGet();
                mostOfOneKey.accumulateAndGet(ofKey, Math::max);
                try {
                    handled.computeIfAbsent(d.partitionKey(), k -> new CopyOnWriteArrayList<>()).add((Long) d.id());
                    // long enough for the other workers to claim meanwhile
                    for (int i = 0; i < 20; i++) {
                        Thread.yield();
                    }
                    return Outcome.ack();
                } finally {
                    inWork.get(d.partitionKey()).decrementAndGet();
                }
            });
            broker.start();
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> count(t, "processed_at is not null") == 500);
        assertThat(mostOfOneKey).hasValue(1);
        assertThat(handled).hasSize(10);
        for (List<Long> ids : handled.values()) {
            assertThat(ids).hasSize(50).isSorted().doesNotHaveDuplicates();
        }
    }

    /** Three keys, three workers: each handler holds its delivery until all three are in work at once. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void rows_of_different_keys_run_side_by_side(Form form) {
        Jobs t = newTable();
        insertKeyed(t, List.of("a", "a", "b", "b", "c", "c"));
        QueueBroker broker = broker();
        CountDownLatch together = new CountDownLatch(3);
        broker.subscribe(InboxQueue.of(keyed(t, form), "emails")).payload(Job.class).workersByKey(3)
                .handle((job, d) -> {
                    together.countDown();
                    return together.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
                });
        broker.start();
        awaitCount(t, "processed_at is not null", 6);
        assertThat(together.getCount()).isZero();
    }

    /**
     * A key's first row retried for later holds the key: its second row waits (though a worker is free and the
     * row is due) until the first comes due, runs again and is acknowledged.
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_retried_for_later_holds_its_key_until_it_runs_again(Form form) {
        Jobs t = newTable();
        List<Long> ids = insertKeyed(t, List.of("a", "a", "b"));
        QueueBroker broker = broker();
        List<Long> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(keyed(t, form), "emails")).payload(Job.class).workersByKey(2)
                .handle((job, d) -> {
                    handled.add((Long) d.id());
                    return d.id().equals(ids.get(0)) && d.attempt().orElse(0) == 1
                            ? Outcome.retryAfter(Duration.ofMinutes(5)) : Outcome.ack();
                });
        broker.start();
        // key b runs; key a's second row waits behind its first, retried for later
        await().atMost(PATIENCE).until(() -> handled.contains(ids.get(2)) && handled.contains(ids.get(0)));
        await().during(POLL.multipliedBy(6)).atMost(PATIENCE).until(() -> !handled.contains(ids.get(1)));
        clock.advance(Duration.ofMinutes(6));
        awaitCount(t, "processed_at is not null", 3);
        List<Long> ofA = handled.stream().filter(id -> !id.equals(ids.get(2))).toList();
        assertThat(ofA).containsExactly(ids.get(0), ids.get(0), ids.get(1));
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void workers_by_key_on_a_table_without_a_partition_key_is_refused_naming_it(Form form) {
        Jobs t = newTable();
        assertRefused(binding(t, form), s -> s.payload(Job.class).workersByKey(2), "has no partition key column");
    }

    /** The row lock and lease forms: the advisory form takes no FIFO group at all. */
    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void workers_by_key_on_a_fifo_group_is_refused(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> fifo = inForm(RoleBinding.of(t, t.ID).fifoGroup(t.GRP).partitionKey(t.PARTITION_KEY)
                .retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD), t, form);
        assertRefused(fifo, s -> s.payload(Job.class).workersByKey(2), "FIFO group");
    }
}
