package dev.tablequeue.outbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.outbox.Outbox;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/** The producer side on a real broker: headers, keys and their order, and nothing sent for a rollback. */
class KafkaPublishIT extends KafkaFixture {

    @Test
    void aPublishCarriesTheRecordIdAndTheHeadersAsKafkaHeadersAndItsKey() {
        Records table = records();
        String name = topic("orders", 3);
        Outbox outbox = open(Outbox.builder(pool).register(name, table.binding().build()).build());
        KafkaTransport kafka = transport(outbox);

        kafka.publish(name, "{\"n\":1}".getBytes(), Map.of(KafkaTransport.KEY_HEADER, "order-7", "trace", "t-1"));

        List<Read> read = readAll(name, 1, PATIENCE);
        assertThat(read).hasSize(1);
        Read r = read.get(0);
        assertThat(r.key()).isEqualTo("order-7");
        assertThat(r.value()).isEqualTo("{\"n\":1}");
        Long id = org.jooq.impl.DSL.using(pool, org.jooq.SQLDialect.POSTGRES).select(table.ID).from(table)
                .fetchOne(table.ID);
        assertThat(r.headers()).containsEntry(Outbox.ID_HEADER, String.valueOf(id)).containsEntry("trace", "t-1")
                .containsEntry(KafkaTransport.KEY_HEADER, "order-7");
    }

    @Test
    void theMessagesOfOneKeyArriveInTheOrderTheyWerePublished() {
        Records table = records();
        String name = topic("ordered", 3);
        Outbox outbox = open(Outbox.builder(pool).register(name, table.binding().build()).build());
        KafkaTransport kafka = transport(outbox);
        int keys = 6;
        int each = 25;
        List<Thread> publishers = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            String key = "customer-" + k;
            publishers.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; i < each; i++) {
                    kafka.publishKeyed(null, name, key, (key + ":" + i).getBytes());
                }
            }));
        }
        publishers.forEach(t -> {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });

        List<Read> read = readAll(name, keys * each, PATIENCE);
        Map<String, List<String>> byKey = read.stream().collect(Collectors.groupingBy(Read::key, LinkedHashMap::new,
                Collectors.mapping(Read::value, Collectors.toList())));
        assertThat(byKey).hasSize(keys);
        byKey.forEach((key, values) -> {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < each; i++) {
                expected.add(key + ":" + i);
            }
            assertThat(values).as("the order of " + key).containsExactlyElementsOf(expected);
        });
        assertThat(read.stream().map(Read::partition).distinct().count()).as("partitions used").isGreaterThan(1);
    }

    @Test
    void aRolledBackTransactionSendsNothingAndACommittedOneSendsAfterItsCommit() {
        Records table = records();
        String name = topic("rollback", 1);
        Outbox outbox = open(Outbox.builder(pool).register(name, table.binding().build()).build());
        KafkaTransport kafka = transport(outbox);
        DSLContext jooq = jooq(outbox);

        try {
            jooq.transaction(cfg -> {
                kafka.publishKeyed(cfg.dsl(), name, "k", "rolled back".getBytes());
                throw new IllegalStateException("the service fails after its publish");
            });
        } catch (IllegalStateException expected) {
            // the rollback this test is about
        }
        jooq.transaction(cfg -> kafka.publishKeyed(cfg.dsl(), name, "k", "committed".getBytes()));

        List<Read> read = readAll(name, 2, java.time.Duration.ofSeconds(10));
        assertThat(read).extracting(Read::value).containsExactly("committed");
        assertThat(jooq.fetchCount(table)).as("records written").isEqualTo(1);
    }
}
