package dev.tablequeue.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.Outcome;
import dev.tablequeue.test.FreshDatabase;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The outbox suite over RabbitMQ, with the faults only a real broker makes: its connection closed by the
 * server in the middle of a run, and publishes it refuses (a nack of the publisher confirm).
 */
public abstract class RabbitOutboxContract extends OutboxContract {

    /**
     * The shared contract pins the tracking rule (a consumer on the same database acknowledges each record), which
     * a binding over RabbitMQ asks for explicitly; the tests of the confirmation below take RabbitMQ's default.
     */
    @Override
    protected DoneWhen doneWhen() {
        return DoneWhen.ACKNOWLEDGED;
    }

    @Test
    public final void by_default_a_record_is_done_once_rabbitmq_confirms_it_and_no_republish_sends_it_again() {
        RecordTable t = newRecords(null);
        Outbox outbox = outbox(b -> b.register("orders", t.binding()).republishAfter(Duration.ofMinutes(1)));
        RabbitTestTransport transport = rabbit(outbox, Map.of());
        List<Received> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        transport.subscribe("orders", Order.class, 1, into(received));
        for (int n = 1; n <= 3; n++) {
            transport.publish(null, "orders", new Order(n));
        }
        // the publish returned on the broker's confirm, and the record was marked then: no consumer's word needed
        assertThat(unprocessed(t)).isZero();
        assertThat(records(t)).isEqualTo(3);

        assertThat(outbox.republish(transport.sender())).as("sent again at startup").isZero();
        for (int pass = 0; pass < 12; pass++) {
            clock.advance(Duration.ofMinutes(2));
            assertThat(outbox.republishDue(transport.sender())).as("sent again by periodic pass " + pass).isZero();
        }
        publishMarkerAndAwait(transport, "orders", received, 99);
        assertThat(numbers(received)).containsExactly(1, 2, 3, 99);
        assertThat(received.get(0).headers()).containsEntry(OutboxHeaders.DONE, "confirmed");
    }

    @Test
    public final void a_record_whose_confirmation_was_not_written_is_sent_again_and_then_done() {
        RecordTable t = newRecords(null);
        Outbox outbox = outbox(t, "orders");
        RabbitTestTransport transport = rabbit(outbox, Map.of());
        List<Received> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        transport.subscribe("orders", Order.class, 1, into(received));
        transport.publish(null, "orders", new Order(1));
        // a record as a service leaves it that died between the broker's confirm and the mark
        long unconfirmed = insertRecord(t, "orders", 2, "{\"" + OutboxHeaders.KEY + "\":\"k\"}");

        assertThat(outbox.republish(transport.sender())).isEqualTo(1);

        await().atMost(PATIENCE).until(() -> received.size() >= 2);
        assertThat(numbers(received)).containsExactly(1, 2);
        assertThat(received.get(1).headers()).containsEntry(Outbox.ID_HEADER, String.valueOf(unconfirmed))
                .containsEntry(OutboxHeaders.DONE, "confirmed");
        assertThat(unprocessed(t)).as("the resend's confirmation is written").isZero();
        assertThat(outbox.republish(transport.sender())).isZero();
    }

    @Test
    public final void a_binding_done_when_acknowledged_keeps_its_records_until_a_tracking_consumer_acknowledges() {
        RecordTable t = newRecords(DoneWhen.ACKNOWLEDGED);
        Outbox outbox = outbox(t, "orders");
        RabbitTestTransport transport = rabbit(outbox, Map.of());
        List<Received> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        transport.subscribe("orders", Order.class, 1, (order, d) -> {
            release.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            received.add(new Received(order.n(), d.headers()));
            return Outcome.ack();
        });
        transport.publish(null, "orders", new Order(1));
        assertThat(unprocessed(t)).as("confirmed by the broker, not yet acknowledged").isEqualTo(1);
        release.countDown();
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
        assertThat(received.get(0).headers()).doesNotContainKey(OutboxHeaders.DONE);
    }

    private RabbitTestTransport rabbit(Outbox outbox, Map<String, Object> queueArguments) {
        RabbitTestTransport t = new RabbitTestTransport(outbox, List.of(faults), queueArguments);
        opened.add(t);
        return t;
    }

    @Test
    public final void a_thousand_messages_survive_the_connection_closed_twice_mid_run_each_handled_once()
            throws Exception {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        RabbitTestTransport transport = rabbit(outbox, Map.of());
        Map<Integer, AtomicInteger> handled = new ConcurrentHashMap<>();
        transport.subscribe("orders", Order.class, 4, (order, d) -> {
            handled.computeIfAbsent(order.n(), n -> new AtomicInteger()).incrementAndGet();
            return Outcome.ack();
        });
        Set<Integer> confirmed = ConcurrentHashMap.newKeySet();
        int failed = 0;
        for (int n = 0; n < 1000; n++) {
            if (n == 250 || n == 650) {
                closeConnection(transport.connectionName);
            }
            try {
                transport.publish(null, "orders", new Order(n));
                confirmed.add(n);
            } catch (RuntimeException e) {
                failed++;
            }
        }
        assertThat(failed).isPositive();
        // every confirmed message arrives (a recovered consumer takes what was unacknowledged again)
        await().atMost(PATIENCE).until(() -> handled.keySet().containsAll(confirmed));

        // the connection has recovered by itself
        await().atMost(PATIENCE).until(() -> transport.rabbit().connection().isOpen());

        outbox.republish(transport.sender());

        await().atMost(PATIENCE).until(() -> handled.size() == 1000 && unprocessed(t) == 0);
        assertThat(handled.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
        assertThat(records(t)).isEqualTo(1000);
    }

    @Test
    public final void a_dead_letter_reaches_the_queues_dead_letter_exchange_and_a_drop_is_discarded()
            throws Exception {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        String dlx = FreshDatabase.prefix() + "dlx_" + java.util.UUID.randomUUID().toString().substring(0, 8);
        String dead = dlx + ".dead";
        RabbitTestTransport transport = rabbit(outbox, Map.of("x-dead-letter-exchange", dlx,
                "x-dead-letter-routing-key", "dead"));
        transport.withChannel(ch -> {
            ch.exchangeDeclare(dlx, "direct", false, false, null);
            ch.queueDeclare(dead, false, false, false, null);
            ch.queueBind(dead, dlx, "dead");
        });
        try {
            // one worker, so a prefetch of one: each message is answered before the next is delivered
            transport.subscribe("orders", Order.class, 1,
                    (order, d) -> order.n() % 2 == 0 ? Outcome.deadLetter() : Outcome.drop());
            for (int n = 0; n <= 4; n++) {
                transport.publish(null, "orders", new Order(n));
            }
            // 4 is answered after every other: once it is in the dead letter, so is whatever went there before it
            List<String> arrived = new java.util.ArrayList<>();
            await().atMost(PATIENCE).until(() -> {
                transport.withChannel(ch -> {
                    com.rabbitmq.client.GetResponse r;
                    while ((r = ch.basicGet(dead, true)) != null) {
                        arrived.add(new String(r.getBody(), java.nio.charset.StandardCharsets.UTF_8));
                    }
                });
                return arrived.stream().anyMatch(body -> body.contains("\"n\":4"));
            });
            assertThat(arrived).hasSize(3).allSatisfy(body -> assertThat(body).containsPattern("\"n\":[024]\\b"));
            await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
            assertThat(transport.ready("orders")).isZero();
        } finally {
            transport.withChannel(ch -> {
                ch.queueDelete(dead);
                ch.exchangeDelete(dlx);
            });
        }
    }

    @Test
    public final void publishes_the_broker_refuses_are_sent_again_by_the_republish_each_handled_once()
            throws Exception {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        // a queue that refuses what it has no room for: a nack of the publisher confirm
        RabbitTestTransport transport = rabbit(outbox, Map.of("x-max-length", 600, "x-overflow", "reject-publish"));
        Map<Integer, AtomicInteger> handled = new ConcurrentHashMap<>();
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger inHand = new AtomicInteger();
        transport.subscribe("orders", Order.class, 4, (order, d) -> {
            inHand.incrementAndGet();
            gate.await(60, TimeUnit.SECONDS);
            handled.computeIfAbsent(order.n(), n -> new AtomicInteger()).incrementAndGet();
            return Outcome.ack();
        });
        int refused = 0;
        for (int n = 0; n < 1000; n++) {
            try {
                transport.publish(null, "orders", new Order(n));
            } catch (RuntimeException e) {
                assertThat(e).hasMessageContaining("refused");
                refused++;
            }
        }
        assertThat(refused).isBetween(300, 400);
        assertThat(unprocessed(t)).isEqualTo(1000);
        // what the broker holds: the queue's room and the four messages in the (blocked) handlers' hands, which
        // are exactly those whose publish returned. A refused publish reported as confirmed (as the client's
        // waitForConfirms can, a nack landing as the wait starts, seen twice in CI under load) is missing here,
        // and the accepted publish after it on that channel is reported refused and counted here as one too many
        int refusals = refused;
        awaitOrDescribe(() -> inHand.get() == 4, () -> state(transport, t, handled, refusals));
        long held = transport.ready("orders") + inHand.get();
        assertThat(held).as("messages held by the broker: those whose publish returned").isEqualTo(1000 - refused);
        gate.countDown();
        // the queue drains (its room is back), and each message handled has its record marked, before the
        // republish sends the refused ones again: a record handled and not yet marked is sent again too, and so
        // many of them (seen once in CI, SQLite marking behind four handlers) fill the queue's room and are refused
        awaitOrDescribe(() -> transport.ready("orders") == 0 && handled.size() >= held
                        && unprocessed(t) == 1000 - handled.size(),
                () -> state(transport, t, handled, refusals) + ", held by the broker " + held);

        assertThat(outbox.republish(transport.sender())).as("the refused records, and no other").isEqualTo(refused);

        awaitOrDescribe(() -> handled.size() == 1000 && unprocessed(t) == 0,
                () -> state(transport, t, handled, refusals));
        assertThat(handled.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
    }

    @Test
    public final void a_publish_no_queue_takes_fails_and_its_record_waits_for_the_republish() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        RabbitTestTransport transport = rabbit(outbox, Map.of());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> transport.publish(null, "orders", new Order(1)))
                .hasMessageContaining("returned").hasMessageContaining("no queue is bound");

        assertThat(unprocessed(t)).isEqualTo(1);
    }

    /**
     * Waits up to {@link #PATIENCE} for {@code done}; where it does not come, fails with what {@code state}
     * describes then, so that a run that times out says where it stood.
     */
    private static void awaitOrDescribe(java.util.concurrent.Callable<Boolean> done,
            java.util.function.Supplier<String> state) {
        try {
            await().atMost(PATIENCE).until(done);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("not done after " + PATIENCE + ": " + state.get(), e);
        }
    }

    private String state(RabbitTestTransport transport, RecordTable t, Map<Integer, AtomicInteger> handled,
            int refused) {
        List<Integer> missing = new java.util.ArrayList<>();
        for (int n = 0; n < 1000 && missing.size() < 20; n++) {
            if (!handled.containsKey(n)) {
                missing.add(n);
            }
        }
        List<Integer> twice = handled.entrySet().stream().filter(e -> e.getValue().get() > 1).map(Map.Entry::getKey)
                .limit(20).toList();
        String ready;
        try {
            ready = Long.toString(transport.ready("orders"));
        } catch (RuntimeException e) {
            ready = "unknown (" + e + ")";
        }
        return "refused " + refused + ", handled " + handled.size() + " (first missing " + missing + ", more than once "
                + twice + "), unprocessed records " + unprocessed(t) + ", ready in the queue " + ready
                + ", connection open " + transport.rabbit().connection().isOpen();
    }

    /** Closes the transport's connection from the server's side, as a broker restart or a network cut does. */
    private static void closeConnection(String name) throws IOException, InterruptedException {
        String pid = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (pid == null && System.nanoTime() < deadline) {
            String listed = RabbitTestTransport.rabbitmqctl("list_connections", "--no-table-headers", "pid",
                    "client_properties");
            for (String line : listed.split("\n")) {
                // client_properties holds {"connection_name",longstr,"<name>"}
                if (line.contains("\"" + name + "\"")) {
                    pid = line.split("\t")[0].trim();
                }
            }
        }
        assertThat(pid).as("the connection %s in rabbitmqctl list_connections", name).isNotNull();
        RabbitTestTransport.rabbitmqctl("close_connection", pid, "the outbox drill closes it");
    }
}
