package dev.tablequeue.outbox.kafka;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.outbox.Outbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The kill drill on Kafka: a service publishing through the outbox in transactions ({@link DrillPublisher}, a JVM
 * of its own, records done on Kafka's acknowledgement) is killed with {@code kill -9} mid-run; a second instance
 * starts on the same database and republishes; everything on the topic is then read and counted against the
 * record table. It proves: every committed record arrives (none lost), no rolled-back transaction's message
 * arrives, a record whose confirmation was written before the kill is not sent again, and a record that arrives
 * twice is one whose confirmation was not written. It prints one line ({@code DRILL ...}, also appended to
 * {@code target/drill-figures.txt}): messages sent before the kill, records confirmed, resent, duplicates, lost.
 */
abstract class KafkaKillDrillContract extends KafkaFixture {
    private static final int THREADS = 4;
    /** More than the service can publish before the kill. */
    private static final int TRANSACTIONS = 20_000;
    /** The kill comes once this many records are confirmed. */
    private static final int KILL_AFTER = 300;

    @Override
    protected abstract KafkaDatabase database();

    @Test
    final void aServiceKilledMidPublishingLosesNothingAndResendsOnlyWhatItHadNotMarkedConfirmed() throws Exception {
        Records table = records();
        String topic = topic("kill", 3);
        String data = table.getName() + "_data";
        db.execute(database().business(data));

        Process service = fork(table, data, topic);
        try {
            await("the service confirms " + KILL_AFTER + " records").atMost(Duration.ofMinutes(3)).until(() -> {
                assertThat(service.isAlive()).as("the publishing service runs (see target/kafka-drills)").isTrue();
                return dsl().fetchCount(table, table.PROCESSED_AT.isNotNull()) >= KILL_AFTER;
            });
        } finally {
            service.destroyForcibly();
            assertThat(service.waitFor(30, SECONDS)).as("the service ends when killed").isTrue();
        }
        Set<Long> confirmedAtKill = new HashSet<>(dsl().select(table.ID).from(table)
                .where(table.PROCESSED_AT.isNotNull()).fetch(table.ID));
        Set<Long> unconfirmedAtKill = new HashSet<>(dsl().select(table.ID).from(table)
                .where(table.PROCESSED_AT.isNull()).fetch(table.ID));

        // the second instance, on the same database: the republish of its startup
        Outbox outbox = open(Outbox.builder(pool).register(topic, table.binding().build()).build());
        List<Long> resentIds = new CopyOnWriteArrayList<>();
        KafkaTransport kafka = open(KafkaTransport.builder(broker.bootstrap()).sendTimeout(Duration.ofSeconds(10))
                .publishMiddleware(outbox.publishMiddleware())
                .publishMiddleware((message, next) -> {
                    next.send(message);
                    resentIds.add(Long.valueOf(message.headers().get(Outbox.ID_HEADER)));
                }).build());
        int resent = outbox.republish(kafka::send);

        Map<Long, String> committed = new HashMap<>();
        for (Record r : dsl().select(table.ID, table.PAYLOAD).from(table).fetch()) {
            committed.put(r.get(table.ID), new String(r.get(table.PAYLOAD), StandardCharsets.UTF_8));
        }
        Set<String> dataRows = new HashSet<>(dsl().select(DSL.field(DSL.name("n"), String.class))
                .from(DSL.table(DSL.name(data))).fetch().getValues(0, String.class));
        int onTopic = messagesOn(topic);
        List<Read> read = readAll(topic, onTopic, PATIENCE);
        Map<Long, Integer> copies = new HashMap<>();
        List<String> strangers = new CopyOnWriteArrayList<>();
        for (Read r : read) {
            Long id = Long.valueOf(r.headers().get(Outbox.ID_HEADER));
            copies.merge(id, 1, Integer::sum);
            int n = Integer.parseInt(r.value().substring(1));
            if (!r.value().equals(committed.get(id)) || DrillPublisher.rollsBack(n)) {
                strangers.add(r.value() + " as record " + id);
            }
        }
        long lost = committed.keySet().stream().filter(id -> !copies.containsKey(id)).count();
        Set<Long> duplicated = new HashSet<>();
        copies.forEach((id, c) -> {
            if (c > 1) {
                duplicated.add(id);
            }
        });
        int sentBeforeKill = read.size() - resent;
        String line = "DRILL kill-9 transport=kafka database=" + database().name().toLowerCase()
                + " committed=" + committed.size() + " sent=" + sentBeforeKill + " confirmed=" + confirmedAtKill.size()
                + " unconfirmedAtKill=" + unconfirmedAtKill.size() + " resent=" + resent + " duplicates="
                + duplicated.size() + " lost=" + lost + " rolledBackArrived=" + strangers.size() + " onTopic="
                + read.size();
        report(line);

        assertThat(read).as("messages read off the topic").hasSize(onTopic);
        assertThat(lost).as("committed records that never arrived").isZero();
        assertThat(strangers).as("messages of rolled-back transactions, or unlike their record").isEmpty();
        assertThat(committed.values()).as("each committed record's data row committed with it")
                .allSatisfy(m -> assertThat(dataRows).contains(m.substring(1)));
        assertThat(dataRows).as("data rows of transactions that rolled back")
                .noneMatch(n -> DrillPublisher.rollsBack(Integer.parseInt(n)));
        assertThat(confirmedAtKill).as("records confirmed before the kill").hasSizeGreaterThanOrEqualTo(KILL_AFTER);
        assertThat(resentIds).as("records the second instance sent").hasSize(resent)
                .doesNotContainAnyElementsOf(confirmedAtKill).containsAll(unconfirmedAtKill);
        assertThat(confirmedAtKill).as("records confirmed before the kill, each arrived once")
                .allSatisfy(id -> assertThat(copies.get(id)).as("copies of record " + id).isEqualTo(1));
        assertThat(duplicated).as("records that arrived twice: only those whose confirmation was not written")
                .doesNotContainAnyElementsOf(confirmedAtKill);
        assertThat(copies.values()).as("copies of a record: its send and at most one resend").allMatch(c -> c <= 2);
        assertThat(dsl().fetchCount(table, table.PROCESSED_AT.isNull())).as("unconfirmed after the republish").isZero();
    }

    private Process fork(Records table, String data, String topic) throws IOException {
        Path dir = Path.of("target", "kafka-drills");
        Files.createDirectories(dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true",
                "-cp", System.getProperty("java.class.path"), DrillPublisher.class.getName(),
                db.url(), database().timeTypeName(), table.getName(), data, topic, broker.bootstrap(),
                String.valueOf(THREADS), String.valueOf(TRANSACTIONS))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(database().name().toLowerCase() + "-" + topic + ".log").toFile())
                .start();
    }
}
