package dev.tablequeue.outbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The test broker itself: it takes a record, and keeps it across a kill and a start on the same log. */
class KafkaBrokerIT {
    private static KafkaBroker broker;

    @BeforeAll
    static void start() {
        broker = KafkaBroker.start();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aRecordWrittenBeforeTheBrokerIsKilledIsReadAfterItStartsAgain() throws Exception {
        broker.createTopic("fixture", 1);
        try (var producer = new KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("fixture", "k", "before the kill")).get();
        }
        broker.kill();
        broker.restart();
        List<String> read = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, String>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ConsumerConfig.GROUP_ID_CONFIG, "fixture", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("fixture"));
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (read.isEmpty() && System.nanoTime() < until) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    read.add(r.value());
                }
            }
        }
        assertThat(read).containsExactly("before the kill");
    }
}
