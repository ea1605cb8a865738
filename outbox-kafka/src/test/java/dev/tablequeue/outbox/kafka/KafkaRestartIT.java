package dev.tablequeue.outbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.Outbox;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The broker killed (as {@code kill -9} does) and started again in the middle of a run of publishes: nothing is
 * lost. A publish the broker did not acknowledge leaves its record unconfirmed, the republish sends it, and the
 * consumer's dedup handles a message that arrived twice once. The drill's figures are printed in a {@code DRILL} line
 * (also appended to {@code target/drill-figures.txt}).
 */
class KafkaRestartIT extends KafkaFixture {
    private static final int MESSAGES = 300;

    @Test
    void aBrokerRestartMidRunLosesNothingAndEachMessageIsHandledOnce() throws Exception {
        Records table = records();
        String name = topic("restart", 3);
        String dead = topic("restart_dead", 1);
        db.execute("CREATE TABLE restart_handled (topic VARCHAR(249) NOT NULL, record_id VARCHAR(64) NOT NULL,"
                + " handled_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (topic, record_id))");
        Outbox outbox = open(Outbox.builder(pool).register(name, table.binding().build()).build());
        AtomicInteger failedSends = new AtomicInteger();
        KafkaTransport kafka = open(KafkaTransport.builder(broker.bootstrap()).sendTimeout(Duration.ofSeconds(3))
                .publishMiddleware(outbox.publishMiddleware())
                .publishMiddleware((message, next) -> {
                    // inside the outbox's middleware: every send, first ones and resends, and how it ended
                    try {
                        next.send(message);
                    } catch (Exception e) {
                        failedSends.incrementAndGet();
                        throw e;
                    }
                })
                .handlerMiddleware(outbox.handlerMiddleware()).build());
        Set<String> handled = ConcurrentHashMap.newKeySet();
        AtomicInteger handlerRuns = new AtomicInteger();
        KafkaSubscription<byte[]> s = kafka.subscribe(name, "restart-group", byte[].class, (payload, d) -> {
            handlerRuns.incrementAndGet();
            handled.add(new String(payload, StandardCharsets.UTF_8));
            return Outcome.ack();
        }, KafkaSubscription.Options.deadLetterTo(dead).dedup(pool, HandledTable.named("restart_handled")));

        CountDownLatch halfway = new CountDownLatch(1);
        Thread restarter = Thread.ofPlatform().start(() -> {
            try {
                halfway.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                return;
            }
            broker.kill();
            broker.restart();
        });
        DSLContext jooq = jooq(outbox);
        for (int n = 0; n < MESSAGES; n++) {
            if (n == MESSAGES / 3) {
                halfway.countDown();
            }
            String key = "key-" + (n % 10);
            byte[] payload = ("m" + n).getBytes(StandardCharsets.UTF_8);
            // a send after the commit that fails is logged, not thrown: its record stays for the republish
            jooq.transaction(cfg -> kafka.publishKeyed(cfg.dsl(), name, key, payload));
        }
        restarter.join(Duration.ofMinutes(2));
        DSLContext dsl = DSL.using(pool, SQLDialect.POSTGRES);
        int unconfirmed = dsl.fetchCount(table, table.PROCESSED_AT.isNull());
        int failed = failedSends.get();

        int resent = outbox.republish(kafka::send);

        await().atMost(PATIENCE).until(() -> handled.size() == MESSAGES);
        int onTopic = messagesOn(name);
        // every copy settled (handled, or dropped by the dedup) once the group's offsets reach the end; a copy is a
        // resend, or a message delivered again because its offset's commit failed while the broker was down
        await().atMost(PATIENCE).until(() -> committedLag(name, "restart-group") == 0);
        // the figures of the drill, as the kill drill gives them: sent (first sends that reached the topic),
        // confirmed (records marked before the republish), resent, duplicates (copies the dedup dropped), lost
        report("DRILL broker-restart transport=kafka database=" + database().name().toLowerCase() + " published="
                + MESSAGES + " sent=" + (onTopic - resent) + " confirmed=" + (MESSAGES - unconfirmed) + " failedSends="
                + failed + " resent=" + resent + " duplicates=" + s.duplicates() + " lost=" + (MESSAGES - handled.size())
                + " onTopic=" + onTopic + " handledOnce=" + handled.size());
        assertThat(failed).as("sends the killed broker failed").isPositive();
        assertThat(unconfirmed).as("records left unconfirmed by the failed sends").isEqualTo(failed);
        assertThat(resent).isEqualTo(unconfirmed);
        assertThat(dsl.fetchCount(table, table.PROCESSED_AT.isNull())).as("unconfirmed after the republish").isZero();
        assertThat(handled).hasSize(MESSAGES);
        assertThat(s.handled()).as("messages handled").isEqualTo(MESSAGES);
        assertThat(handlerRuns.get()).as("handler runs (each message once)").isEqualTo(MESSAGES);
        assertThat(dsl.fetchCount(DSL.table(DSL.name("restart_handled")))).isEqualTo(MESSAGES);
    }
}
