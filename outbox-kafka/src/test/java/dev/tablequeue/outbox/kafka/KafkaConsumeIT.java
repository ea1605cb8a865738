package dev.tablequeue.outbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.Outbox;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The consumer side on a real broker: a message that keeps failing goes to the dead-letter topic. The dedup in the
 * handler's transaction and the offsets are {@link KafkaDedupContract}'s, on each database.
 */
class KafkaConsumeIT extends KafkaFixture {

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
}
