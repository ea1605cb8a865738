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
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The consumer's dedup by outbox record id in the consuming service's own table ({@link HandledTable}), on each
 * database: a copy is acknowledged without its handler, the handler's writes commit with the dedup row, a handler
 * that fails takes the row back with its writes, and the offsets are committed after settlement. One small class
 * per database names it in {@link #database()}.
 */
abstract class KafkaDedupContract extends KafkaFixture {

    @Override
    protected abstract KafkaDatabase database();

    @Test
    final void duplicatesFromARepublishAreHandledOnceAndTheHandlersWritesCommitWithTheDedupRow() throws Exception {
        Records table = records();
        String name = topic("dedup", 3);
        String dead = topic("dedup_dead", 1);
        String handledTable = handledTable();
        String effects = "effects_" + handledTable;
        db.execute(database().business(effects));
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
        // every record sent once more, as after a service that died between the acknowledgement and the mark
        dsl().update(table).setNull(table.PROCESSED_AT).execute();
        assertThat(outbox.republish(kafka::send)).isEqualTo(5);
        assertThat(readAll(name, 10, PATIENCE)).as("copies on the topic").hasSize(10);

        List<String> handled = new CopyOnWriteArrayList<>();
        KafkaSubscription<byte[]> s = kafka.subscribe(name, "dedup-group", byte[].class, (payload, d) -> {
            String text = new String(payload, StandardCharsets.UTF_8);
            d.tx().execute("INSERT INTO " + effects + " (n) VALUES (?)", text);
            handled.add(text);
            return Outcome.ack();
        }, KafkaSubscription.Options.deadLetterTo(dead).dedup(pool, HandledTable.named(handledTable)));

        await().atMost(PATIENCE).until(() -> s.handled() + s.duplicates() == 10);
        assertThat(handled).containsExactlyInAnyOrder("e1", "e2", "e3", "e4", "e5");
        assertThat(s.duplicates()).isEqualTo(5);
        assertThat(dsl().fetchCount(DSL.table(DSL.name(handledTable)))).isEqualTo(5);
        assertThat(dsl().fetchCount(DSL.table(DSL.name(effects)))).isEqualTo(5);
        assertThat(middlewareSaw).hasSize(5).containsOnly(name);
        assertThat(s.deadLettered()).isZero();

        // the offsets were committed after settlement: the group's position is the end of every partition
        await().atMost(PATIENCE).until(() -> committedLag(name, "dedup-group") == 0);
    }

    @Test
    final void aHandlerThatFailsTakesBackItsWritesAndItsDedupRowSoItsRetryRunsTheHandlerAgain() {
        Records table = records();
        String name = topic("dedup_retry", 1);
        String dead = topic("dedup_retry_dead", 1);
        String handledTable = handledTable();
        String effects = "effects_" + handledTable;
        db.execute(database().business(effects));
        Outbox outbox = open(Outbox.builder(pool).register(name, table.binding().build()).build());
        KafkaTransport kafka = transport(outbox);
        kafka.publishKeyed(null, name, "k", "flaky".getBytes(StandardCharsets.UTF_8));
        kafka.publishKeyed(null, name, "k", "steady".getBytes(StandardCharsets.UTF_8));
        AtomicInteger runsOfFlaky = new AtomicInteger();
        List<String> handled = new CopyOnWriteArrayList<>();
        KafkaSubscription<byte[]> s = kafka.subscribe(name, "dedup-retry-group", byte[].class, (payload, d) -> {
            String text = new String(payload, StandardCharsets.UTF_8);
            // the write goes first, so a failure after it has something to take back
            d.tx().execute("INSERT INTO " + effects + " (n) VALUES (?)", text);
            if (text.equals("flaky") && runsOfFlaky.incrementAndGet() == 1) {
                throw new IllegalStateException("the first run of flaky fails after its write");
            }
            handled.add(text);
            return Outcome.ack();
        }, KafkaSubscription.Options.deadLetterTo(dead).dedup(pool, HandledTable.named(handledTable))
                .backoff(Duration.ofMillis(50), Duration.ofMillis(200)));

        await().atMost(PATIENCE).until(() -> handled.size() == 2);
        assertThat(handled).containsExactly("flaky", "steady");
        assertThat(runsOfFlaky).as("runs of the handler for flaky: the failed one and its retry").hasValue(2);
        assertThat(s.duplicates()).as("the retry was not taken for a copy").isZero();
        assertThat(s.deadLettered()).isZero();
        assertThat(dsl().fetchCount(DSL.table(DSL.name(effects)))).as("effects: each once").isEqualTo(2);
        assertThat(dsl().fetchCount(DSL.table(DSL.name(handledTable)))).as("dedup rows").isEqualTo(2);
    }

    @Test
    final void copiesConsumedByTwoConsumersOfTheGroupAtOnceAreHandledOnceEach() throws Exception {
        String name = topic("dedup_two", 4);
        String dead = topic("dedup_two_dead", 1);
        String handledTable = handledTable();
        // a producer without the outbox: each record id twice, under two keys, so the copies of one record land
        // on partitions two consumers hold, and race for its dedup row
        KafkaTransport kafka = open(KafkaTransport.builder(broker.bootstrap()).sendTimeout(Duration.ofSeconds(10))
                .build());
        int records = 40;
        for (String copy : List.of("a", "b")) {
            for (int n = 0; n < records; n++) {
                kafka.publish(null, name, ("e" + n).getBytes(StandardCharsets.UTF_8), Map.of(
                        Outbox.ID_HEADER, String.valueOf(1000 + n), KafkaTransport.KEY_HEADER, copy + n));
            }
        }
        List<String> handled = new CopyOnWriteArrayList<>();
        KafkaSubscription<byte[]> s = kafka.subscribe(name, "dedup-two-group", byte[].class, (payload, d) -> {
            handled.add(new String(payload, StandardCharsets.UTF_8));
            return Outcome.ack();
        }, KafkaSubscription.Options.deadLetterTo(dead).dedup(pool, HandledTable.named(handledTable)).consumers(2));

        await().atMost(PATIENCE).until(() -> s.handled() + s.duplicates() == 2L * records);
        assertThat(handled).hasSize(records).doesNotHaveDuplicates();
        assertThat(s.duplicates()).isEqualTo(records);
        assertThat(dsl().fetchCount(DSL.table(DSL.name(handledTable)))).isEqualTo(records);
    }
}
