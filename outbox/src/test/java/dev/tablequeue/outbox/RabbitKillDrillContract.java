package dev.tablequeue.outbox;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The kill drill on RabbitMQ: a service publishing through the outbox in transactions ({@link DrillPublisher}, a
 * JVM of its own, records done on the publisher confirm) is killed with {@code kill -9} mid-run; a second instance
 * starts on the same database and republishes; the queue is then drained and counted against the record table. It
 * proves: every committed record arrives (none lost), no rolled-back transaction's message arrives, a record
 * whose confirmation was written before the kill is not sent again, and a record that arrives twice is one whose
 * confirmation was not written. It prints one line ({@code DRILL ...}, also appended to
 * {@code target/drill-figures.txt}): messages sent before the kill, records confirmed, resent, duplicates, lost.
 */
public abstract class RabbitKillDrillContract extends OutboxFixture {
    private static final int THREADS = 4;
    /** More than the service can publish before the kill. */
    private static final int TRANSACTIONS = 20_000;
    /** The kill comes once this many records are confirmed. */
    private static final int KILL_AFTER = 300;
    private static final Pattern NUMBER = Pattern.compile("\"n\":(\\d+)");

    @Override
    protected TestTransport.Kind transportKind() {
        return RabbitTestTransport.KIND;
    }

    @Test
    public final void a_service_killed_mid_publishing_loses_nothing_and_resends_only_what_it_had_not_marked_confirmed()
            throws Exception {
        RecordTable table = newRecords(null);
        String orders = newBusinessTable();
        Outbox outbox = outbox(b -> b.register("orders", table.binding()));
        List<Long> resentIds = new CopyOnWriteArrayList<>();
        RabbitTestTransport second = new RabbitTestTransport(outbox, List.of((message, next) -> {
            next.send(message);
            resentIds.add(Long.valueOf(message.headers().get(Outbox.ID_HEADER)));
        }), Map.of());
        opened.add(second);
        String queue = second.queueOf("orders");
        second.withChannel(ch -> {
            ch.queueDeclare(queue, false, false, false, null);
            ch.queueBind(queue, second.exchange, "orders");
        });
        try {
            Process service = fork(table, orders, second.exchange);
            try {
                await("the service confirms " + KILL_AFTER + " records").atMost(Duration.ofMinutes(3)).until(() -> {
                    assertThat(service.isAlive()).as("the publishing service runs (see target/rabbit-drills)").isTrue();
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
            int resent = outbox.republish(second.sender());

            Map<Long, Integer> committed = new HashMap<>();
            for (Record r : dsl().select(table.ID, table.PAYLOAD).from(table).fetch()) {
                committed.put(r.get(table.ID), number(r.get(table.PAYLOAD)));
            }
            Set<Integer> orderRows = new HashSet<>(dsl().select(DSL.field(DSL.name("id"), Long.class))
                    .from(DSL.table(DSL.name(orders))).fetch().getValues(0, Long.class).stream()
                    .map(Long::intValue).toList());
            List<GetResponse> read = new ArrayList<>();
            second.withChannel(ch -> {
                for (GetResponse r = ch.basicGet(queue, true); r != null; r = ch.basicGet(queue, true)) {
                    read.add(r);
                }
            });
            Map<Long, Integer> copies = new HashMap<>();
            List<String> strangers = new ArrayList<>();
            for (GetResponse r : read) {
                Long id = Long.valueOf(String.valueOf(r.getProps().getHeaders().get(Outbox.ID_HEADER)));
                copies.merge(id, 1, Integer::sum);
                int n = number(r.getBody());
                if (!Integer.valueOf(n).equals(committed.get(id)) || DrillPublisher.rollsBack(n)) {
                    strangers.add("order " + n + " as record " + id);
                }
            }
            long lost = committed.keySet().stream().filter(id -> !copies.containsKey(id)).count();
            Set<Long> duplicated = new HashSet<>();
            copies.forEach((id, c) -> {
                if (c > 1) {
                    duplicated.add(id);
                }
            });
            String line = "DRILL kill-9 transport=rabbitmq database=" + database().name().toLowerCase()
                    + " committed=" + committed.size() + " sent=" + (read.size() - resent) + " confirmed="
                    + confirmedAtKill.size() + " unconfirmedAtKill=" + unconfirmedAtKill.size() + " resent=" + resent
                    + " duplicates=" + duplicated.size() + " lost=" + lost + " rolledBackArrived=" + strangers.size()
                    + " inQueue=" + read.size();
            drillFigures(line);

            assertThat(lost).as("committed records that never arrived").isZero();
            assertThat(strangers).as("messages of rolled-back transactions, or unlike their record").isEmpty();
            assertThat(committed.values()).as("each committed record's order committed with it")
                    .allSatisfy(n -> assertThat(orderRows).contains(n));
            assertThat(orderRows).as("orders of transactions that rolled back")
                    .noneMatch(DrillPublisher::rollsBack);
            assertThat(confirmedAtKill).as("records confirmed before the kill").hasSizeGreaterThanOrEqualTo(KILL_AFTER);
            assertThat(resentIds).as("records the second instance sent").hasSize(resent)
                    .doesNotContainAnyElementsOf(confirmedAtKill).containsAll(unconfirmedAtKill);
            assertThat(confirmedAtKill).as("records confirmed before the kill, each arrived once")
                    .allSatisfy(id -> assertThat(copies.get(id)).as("copies of record " + id).isEqualTo(1));
            assertThat(duplicated).as("records that arrived twice: only those whose confirmation was not written")
                    .doesNotContainAnyElementsOf(confirmedAtKill);
            assertThat(copies.values()).as("copies of a record: its send and at most one resend")
                    .allMatch(c -> c <= 2);
            assertThat(unprocessed(table)).as("unconfirmed after the republish").isZero();
        } finally {
            second.withChannel(ch -> ch.queueDelete(queue));
        }
    }

    private static int number(byte[] payload) {
        Matcher m = NUMBER.matcher(new String(payload, StandardCharsets.UTF_8));
        assertThat(m.find()).as("an order's number in " + new String(payload, StandardCharsets.UTF_8)).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private Process fork(RecordTable table, String orders, String exchange) throws IOException {
        Path dir = Path.of("target", "rabbit-drills");
        Files.createDirectories(dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true",
                "-cp", System.getProperty("java.class.path"), DrillPublisher.class.getName(),
                db.url(), database().timeTypeName(), table.getName(), orders, exchange,
                String.valueOf(THREADS), String.valueOf(TRANSACTIONS))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(database().name().toLowerCase() + "-" + table.getName() + ".log").toFile())
                .start();
    }
}
