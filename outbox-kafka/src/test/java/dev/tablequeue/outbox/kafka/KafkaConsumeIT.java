package dev.tablequeue.outbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.Outbox;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/** The consumer side on a real broker: the outbox's middlewares, the dedup in the handler's transaction, offsets, dead letters. */
class KafkaConsumeIT extends KafkaFixture {

    private String handledTable() {
        String name = "handled_" + Math.abs(System.nanoTime() % 1_000_000);
        db.execute("CREATE TABLE " + name + " (topic VARCHAR(249) NOT NULL, record_id VARCHAR(64) NOT NULL,"
                + " handled_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (topic, record_id))");
        return name;
    }

    @Test
    void duplicatesFromARepublishAreHandledOnceAndTheHandlersWritesCommitWithTheDedupRow() throws Exception {
        Records table = records();
        String name = topic("dedup", 3);
        String dead = topic("dedup_dead", 1);
        String handledTable = handledTable();
        db.execute("CREATE TABLE effects_" + handledTable + " (n TEXT PRIMARY KEY)");
        Outbox outbox = open(Outbox.builder(pool).register(name, table.binding().build()).build());
        List<String> middlewareSaw = new CopyOnWriteArrayList<>();
        KafkaTransport kafka = open(KafkaTransport.builder(broker.bootstrap()).sendTimeout(Duration.ofSeconds(10))
                .publishMiddleware(outbox.publishMiddleware())
                .handlerMiddleware((n, d, next) -> {
                    middlewareSaw.add(n);
                    return next.call();
                })
                .handlerMiddleware(outbox.handlerMiddleware()).build());
        for (int n = 1; n <= 5; n++) {
            kafka.publishKeyed(null, name, "k" + (n % 2), ("e" + n).getBytes(StandardCharsets.UTF_8));
        }
        DSLContext dsl = DSL.using(pool, SQLDialect.POSTGRES);
        // every record sent once more, as after a service that died between the acknowledgement and the mark
        dsl.update(table).setNull(table.PROCESSED_AT).execute();
        assertThat(outbox.republish(kafka::send)).isEqualTo(5);
        assertThat(readAll(name, 10, PATIENCE)).as("copies on the topic").hasSize(10);

        List<String> handled = new CopyOnWriteArrayList<>();
        KafkaSubscription<byte[]> s = kafka.subscribe(name, "dedup-group", byte[].class, (payload, d) -> {
            String text = new String(payload, StandardCharsets.UTF_8);
            d.tx().execute("INSERT INTO effects_" + handledTable + " VALUES (?)", text);
            handled.add(text);
            return Outcome.ack();
        }, KafkaSubscription.Options.deadLetterTo(dead).dedup(pool, HandledTable.named(handledTable)));

        await().atMost(PATIENCE).until(() -> s.handled() + s.duplicates() == 10);
        assertThat(handled).containsExactlyInAnyOrder("e1", "e2", "e3", "e4", "e5");
        assertThat(s.duplicates()).isEqualTo(5);
        assertThat(dsl.fetchCount(DSL.table(DSL.name(handledTable)))).isEqualTo(5);
        assertThat(dsl.fetchCount(DSL.table(DSL.name("effects_" + handledTable)))).isEqualTo(5);
        assertThat(middlewareSaw).hasSize(5).containsOnly(name);

        // the offsets were committed after settlement: the group's position is the end of every partition
        await().atMost(PATIENCE).until(() -> committedLag(name, "dedup-group") == 0);
    }

    @Test
    void aMessageThatKeepsFailingGoesToTheDeadLetterTopicAndTheMessagesBehindItAreHandled() {
        Records table = records();
        String name = topic("failing", 1);
        String dead = topic("failing_dead", 1);
        Outbox outbox = open(Outbox.builder(pool).register(name, table.binding().build()).build());
        KafkaTransport kafka = transport(outbox);
        for (int n = 1; n <= 4; n++) {
            kafka.publishKeyed(null, name, "one-key", ("e" + n).getBytes(StandardCharsets.UTF_8));
        }
        List<String> handled = new CopyOnWriteArrayList<>();
        List<Integer> attemptsOfE2 = new CopyOnWriteArrayList<>();
        KafkaSubscription<byte[]> s = kafka.subscribe(name, "failing-group", byte[].class, (payload, d) -> {
            String text = new String(payload, StandardCharsets.UTF_8);
            if (text.equals("e2")) {
                attemptsOfE2.add(d.attempt().orElseThrow());
                throw new IllegalStateException("e2 never goes through");
            }
            handled.add(text);
            return Outcome.ack();
        }, KafkaSubscription.Options.deadLetterTo(dead).attempts(3)
                .backoff(Duration.ofMillis(50), Duration.ofMillis(200)));

        await().atMost(PATIENCE).until(() -> handled.size() == 3);
        assertThat(handled).containsExactly("e1", "e3", "e4");
        assertThat(attemptsOfE2).containsExactly(1, 2, 3);
        assertThat(s.deadLettered()).isEqualTo(1);
        List<Read> deadRead = readAll(dead, 1, PATIENCE);
        assertThat(deadRead).hasSize(1);
        assertThat(deadRead.get(0).value()).isEqualTo("e2");
        assertThat(deadRead.get(0).key()).isEqualTo("one-key");
        assertThat(deadRead.get(0).headers()).containsKey(Outbox.ID_HEADER)
                .containsEntry(KafkaSubscription.DEAD_LETTER_FROM, name + "-0@1")
                .hasEntrySatisfying(KafkaSubscription.DEAD_LETTER_REASON, r -> assertThat(r).contains("3 times"));
    }

    private static long committedLag(String topic, String group) throws Exception {
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> committed = admin
                    .listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            var ends = admin.listOffsets(committed.keySet().stream().collect(java.util.stream.Collectors.toMap(
                    tp -> tp, tp -> OffsetSpec.latest()))).all().get();
            long lag = 0;
            for (var e : committed.entrySet()) {
                lag += ends.get(e.getKey()).offset() - (e.getValue() == null ? 0 : e.getValue().offset());
            }
            return committed.isEmpty() ? -1 : lag;
        }
    }
}
