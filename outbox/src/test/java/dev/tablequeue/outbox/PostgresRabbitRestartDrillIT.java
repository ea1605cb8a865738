package dev.tablequeue.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.tablequeue.outbox.rabbitmq.RabbitTransport;
import dev.tablequeue.test.FreshDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * The broker killed ({@code kill -9}) and started again in the middle of a run of publishes: a RabbitMQ node of the
 * drill's own ({@link RabbitNode}), so that the server other tests use is left alone. A service publishes through the
 * outbox in transactions, its records on PostgreSQL and done on the publisher confirm, to a durable queue. Nothing
 * is lost: a publish the broker did not confirm leaves its record unconfirmed, the connection recovers by itself
 * once the node is back, and the republish sends those records and no other; a record confirmed before the kill
 * is in the queue after it (the broker confirms a persistent message once it is on disk). A record that arrives
 * twice is one whose confirmation was not written. The figures are printed in a {@code DRILL} line (also appended
 * to {@code target/drill-figures.txt}).
 */
class PostgresRabbitRestartDrillIT extends OutboxFixture {
    /** Publishes confirmed before the restart, and again once the connection is back. */
    private static final int CONFIRMED_BEFORE = 200;
    private static final int CONFIRMED_AFTER = 100;
    /** Sends failed once the broker is down, after which the drill waits for it to be back. */
    private static final int FAILED_WHILE_DOWN = 20;

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.POSTGRES;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return RabbitTestTransport.KIND;
    }

    @Test
    void a_broker_restart_mid_run_loses_nothing_and_the_republish_sends_only_the_unconfirmed_records()
            throws Exception {
        RecordTable table = newRecords(null);
        RabbitNode node = RabbitNode.start();
        opened.add(node);
        // the default exchange routes a message to the queue of its name; queue and messages outlive the restart
        String name = FreshDatabase.prefix() + "restart_" + UUID.randomUUID().toString().substring(0, 8);
        node.admin(ch -> ch.queueDeclare(name, true, false, false, null));
        // the node writes a queue's declaration to disk on its own schedule: a kill -9 a few seconds after it lost
        // the queue (seen once: the restart recovered 0 queues, and every later publish came back unroutable), so
        // a clean stop writes it, as for a queue a service declared long before the broker's crash
        node.stop();
        node.restart();
        Outbox outbox = outbox(table, name);
        AtomicInteger confirmed = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        RabbitTransport rabbit = RabbitTransport.builder(node.factory()).connectionName(name + "-conn")
                .confirmTimeout(Duration.ofSeconds(3)).publishMiddleware(outbox.publishMiddleware())
                .publishMiddleware((message, next) -> {
                    // inside the outbox's middleware: every send, first ones and resends, and how it ended
                    try {
                        next.send(message);
                        confirmed.incrementAndGet();
                    } catch (Exception e) {
                        failed.incrementAndGet();
                        throw e;
                    }
                }).build();
        opened.add(rabbit);
        CountDownLatch halfway = new CountDownLatch(1);
        CountDownLatch restarted = new CountDownLatch(1);
        AtomicReference<Throwable> restartFailure = new AtomicReference<>();
        Thread restarter = Thread.ofPlatform().name("broker-restart").start(() -> {
            try {
                halfway.await();
                node.kill();
                node.restart();
            } catch (Throwable e) {
                restartFailure.set(e);
            } finally {
                restarted.countDown();
            }
        });
        DSLContext jooq = dsl(outbox);
        int published = 0;
        int confirmedAtRestart = -1;
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        // publish until the broker is back and has confirmed CONFIRMED_AFTER more
        while (confirmedAtRestart < 0 || confirmed.get() < confirmedAtRestart + CONFIRMED_AFTER) {
            assertThat(System.nanoTime()).as("published " + published + ", confirmed " + confirmed + ", failed "
                    + failed + ": the broker is back within 3 minutes").isLessThan(deadline);
            assertThat(restartFailure.get()).as("the kill and restart of the RabbitMQ node").isNull();
            if (confirmed.get() >= CONFIRMED_BEFORE) {
                halfway.countDown();
            }
            if (confirmedAtRestart < 0 && failed.get() >= FAILED_WHILE_DOWN) {
                // the broker is down: a service would go on failing sends; the drill waits for the node instead
                assertThat(restarted.await(3, TimeUnit.MINUTES)).as("the node restarted").isTrue();
            }
            if (confirmedAtRestart < 0 && restarted.getCount() == 0) {
                confirmedAtRestart = confirmed.get();
            }
            int n = published++;
            // a send after the commit that fails is logged, not thrown: its record stays for the republish
            jooq.transaction(cfg -> rabbit.publish(cfg.dsl(), name, new Order(n)));
        }
        restarter.join();
        assertThat(restartFailure.get()).as("the kill and restart of the RabbitMQ node").isNull();
        int failedSends = failed.get();
        Set<Long> confirmedRecords = new HashSet<>(dsl().select(table.ID).from(table)
                .where(table.PROCESSED_AT.isNotNull()).fetch(table.ID));
        Set<Long> unconfirmedRecords = new HashSet<>(dsl().select(table.ID).from(table)
                .where(table.PROCESSED_AT.isNull()).fetch(table.ID));

        int resent = outbox.republish(rabbit::send);

        List<GetResponse> read = new ArrayList<>();
        node.admin(ch -> {
            for (GetResponse r = ch.basicGet(name, true); r != null; r = ch.basicGet(name, true)) {
                read.add(r);
            }
        });
        Map<Long, Integer> copies = new HashMap<>();
        for (GetResponse r : read) {
            copies.merge(Long.valueOf(String.valueOf(r.getProps().getHeaders().get(Outbox.ID_HEADER))), 1,
                    Integer::sum);
        }
        Set<Long> committed = new HashSet<>(confirmedRecords);
        committed.addAll(unconfirmedRecords);
        long lost = committed.stream().filter(id -> !copies.containsKey(id)).count();
        Set<Long> duplicated = new HashSet<>();
        copies.forEach((id, c) -> {
            if (c > 1) {
                duplicated.add(id);
            }
        });
        drillFigures("DRILL broker-restart transport=rabbitmq database=" + database().name().toLowerCase()
                + " published=" + published + " sent=" + (read.size() - resent) + " confirmed="
                + confirmedRecords.size() + " failedSends=" + failedSends + " resent=" + resent + " duplicates="
                + duplicated.size() + " lost=" + lost + " inQueue=" + read.size());

        assertThat(committed).as("records, one per publish").hasSize(published);
        assertThat(failedSends).as("sends the restart failed").isPositive();
        assertThat(unconfirmedRecords).as("records left unconfirmed: those of the failed sends")
                .hasSize(failedSends);
        assertThat(resent).as("records the republish sent: the unconfirmed ones").isEqualTo(failedSends);
        assertThat(unprocessed(table)).as("unconfirmed after the republish").isZero();
        assertThat(lost).as("records that never arrived").isZero();
        assertThat(copies.keySet()).as("messages in the queue, each a record's").isEqualTo(committed);
        assertThat(confirmedRecords).as("records confirmed before the republish, each arrived once")
                .allSatisfy(id -> assertThat(copies.get(id)).as("copies of record " + id).isEqualTo(1));
        assertThat(copies.values()).as("copies of a record: its send and at most one resend")
                .allMatch(c -> c <= 2);
    }
}
