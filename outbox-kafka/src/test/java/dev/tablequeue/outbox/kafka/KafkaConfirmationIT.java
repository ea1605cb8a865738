package dev.tablequeue.outbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.OutboxHeaders;
import dev.tablequeue.test.SettableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * When a record is done on Kafka: by default once the broker acknowledged its send, so an event for another
 * service is sent once, not by every republish; a record whose confirmation was not written is sent again.
 */
class KafkaConfirmationIT extends KafkaFixture {

    @Test
    void byDefaultARecordIsDoneOnceKafkaAcknowledgesItAndNoRepublishSendsItAgain() {
        Records table = records();
        String name = topic("confirmed", 1);
        SettableClock clock = new SettableClock();
        Outbox outbox = open(Outbox.builder(pool).clock(clock).register(name, table.binding().build())
                .republishAfter(Duration.ofMinutes(1)).build());
        KafkaTransport kafka = transport(outbox);
        for (int n = 1; n <= 3; n++) {
            kafka.publishKeyed(null, name, "k", ("event " + n).getBytes(StandardCharsets.UTF_8));
        }
        DSLContext dsl = DSL.using(pool, SQLDialect.POSTGRES);
        int unconfirmed = dsl.fetchCount(table, table.PROCESSED_AT.isNull());

        int resent = outbox.republish(kafka::send);
        for (int pass = 0; pass < 12; pass++) {
            clock.advance(Duration.ofMinutes(2));
            resent += outbox.republishDue(kafka::send);
        }

        // before records were done on confirmation: 3 at startup and 3 at each of the 12 passes, 39 in all
        assertThat(resent).as("records sent again").isZero();
        assertThat(unconfirmed).as("unconfirmed records").isZero();
        List<Read> read = readAll(name, 4, Duration.ofSeconds(5));
        assertThat(read).extracting(Read::value).containsExactly("event 1", "event 2", "event 3");
        assertThat(read.get(0).headers()).containsEntry(OutboxHeaders.DONE, "confirmed");
    }

    @Test
    void recordsWhoseConfirmationWasNotWrittenAreSentAgainInIdOrderPerKeyAndThenDone() {
        Records table = records();
        String name = topic("unconfirmed", 3);
        Outbox outbox = open(Outbox.builder(pool).register(name, table.binding().build()).build());
        KafkaTransport kafka = transport(outbox);
        DSLContext dsl = DSL.using(pool, SQLDialect.POSTGRES);
        // records as a service leaves them that died between Kafka's acknowledgement and the mark
        for (int n = 0; n < 12; n++) {
            String key = "key-" + (n % 3);
            dsl.insertInto(table).set(table.NAME, name).set(table.PAYLOAD, (key + ":" + n).getBytes())
                    .set(table.HEADERS, "{\"" + OutboxHeaders.KEY + "\":\"" + key + "\"}").execute();
        }

        assertThat(outbox.republish(kafka::send)).isEqualTo(12);

        assertThat(dsl.fetchCount(table, table.PROCESSED_AT.isNull())).as("unconfirmed after the resend").isZero();
        assertThat(outbox.republish(kafka::send)).as("sent again by a second republish").isZero();
        List<Read> read = readAll(name, 12, PATIENCE);
        Map<String, List<String>> byKey = read.stream().collect(Collectors.groupingBy(Read::key,
                Collectors.mapping(Read::value, Collectors.toList())));
        assertThat(byKey.get("key-0")).containsExactly("key-0:0", "key-0:3", "key-0:6", "key-0:9");
        assertThat(byKey.get("key-1")).containsExactly("key-1:1", "key-1:4", "key-1:7", "key-1:10");
        assertThat(byKey.get("key-2")).containsExactly("key-2:2", "key-2:5", "key-2:8", "key-2:11");
    }
}
