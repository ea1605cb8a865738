package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What reaches a handler from rows as they are found in the table: headers columns of any content, payloads that
 * do not decode (dropped, logged, or moved to a dead letter), a publish without a payload, the type of a
 * delivery's id, and a drill of bad rows among good ones, each settled once by the decode policy.
 *
 * <p>Each test runs for each form the database takes. Each database runs this suite through a small subclass that
 * names its {@link ContractDatabase}; the tests are final. The drill is tagged {@code drill}; it writes 500 rows,
 * or as many as the system property {@code tablequeue.drill.rows} says.
 */
public abstract class DecodingContract extends BrokerFixture {

    /** How many rows the bad-data drill writes: 500, or the system property {@code tablequeue.drill.rows}. */
    private static final int DRILL_ROWS = Integer.getInteger("tablequeue.drill.rows", 500);

    // ================================================================ headers

    /** In row mode, the headers column reaches the handler as the delivery's headers. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void row_mode_delivers_the_headers_column_as_the_deliverys_headers(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = inForm(RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).headers(t.HEADERS).data(t.NOTE), t, form);
        QueueBroker broker = broker();
        Map<String, Map<String, String>> seen = new ConcurrentHashMap<>();
        broker.subscribe(InboxQueue.of(b, "emails")).rows().handle((row, d) -> {
            seen.put(row.get(t.NOTE), d.headers());
            return Outcome.ack();
        });
        broker.start();
        broker.publisher().publish(b, Message.row("emails").header("trace", "t-1").header("tenant", "acme")
                .set(t.NOTE, "with headers"));
        broker.publisher().publish(b, Message.row("emails").set(t.NOTE, "without"));
        await().atMost(PATIENCE).until(() -> seen.size() == 2);
        assertThat(seen.get("with headers")).containsOnly(Map.entry("trace", "t-1"), Map.entry("tenant", "acme"));
        assertThat(seen.get("without")).isEmpty();
    }

    /** Header values that are no strings reach the handler as their JSON text; a JSON null is left out. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void header_values_other_than_strings_reach_the_handler_as_their_json_text(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = withHeaders(t, form);
        QueueBroker broker = broker();
        List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            seen.add(d.headers());
            return Outcome.ack();
        });
        broker.start();
        insertWithHeaders(t, "{\"trace\":\"t-1\",\"context\":{\"user\":7,\"roles\":[\"a\",null]},\"retries\":42,"
                + "\"urgent\":true,\"ratio\":0.5,\"gone\":null}");
        await().atMost(PATIENCE).until(() -> seen.size() == 1);
        assertThat(seen.get(0)).containsOnly(
                Map.entry("trace", "t-1"),
                Map.entry("context", "{\"user\":7,\"roles\":[\"a\",null]}"),
                Map.entry("retries", "42"),
                Map.entry("urgent", "true"),
                Map.entry("ratio", "0.5"));
    }

    /** A headers column that holds no JSON object leaves the headers empty, and its row is handled. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_headers_column_that_holds_no_json_object_leaves_the_headers_empty_and_the_row_is_handled(
            Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = withHeaders(t, form);
        List<String> odd = List.of("[\"a\",\"b\"]", "42", "null", "\"text\"", "not json at all", "{\"open\":", "");
        Map<Long, Map<String, String>> seen = new ConcurrentHashMap<>();
        List<Object> undecoded = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(decodeFailuresInto(undecoded));
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            seen.put(d.id(t.ID), d.headers());
            return Outcome.ack();
        });
        broker.start();
        List<Long> ids = new ArrayList<>();
        for (String headers : odd) {
            ids.add(insertWithHeaders(t, headers));
        }
        ids.add(insertWithHeaders(t, null));
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == ids.size());
        assertThat(undecoded).isEmpty();
        assertThat(seen).containsOnlyKeys(ids).allSatisfy((id, headers) -> assertThat(headers).isEmpty());
    }

    // ================================================================ payloads that do not decode

    /** A JSON null payload fails to decode, reaches the listener, and never the handler. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_json_null_payload_is_a_decode_failure_and_never_reaches_the_handler(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Object> undecoded = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(decodeFailuresInto(undecoded));
        List<Job> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle(acking(handled));
        long nothing = insertRaw(t, "emails", "null".getBytes());
        insertJobs(t, 1);
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 2);
        assertThat(handled).containsExactly(new Job(0, "mail"));
        assertThat(undecoded).containsExactly(nothing);
    }

    /** A payload with properties the message type does not know is decoded all the same. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_payload_with_properties_the_message_type_does_not_know_is_decoded(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        List<Job> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle(acking(handled));
        broker.start();
        // a producer a release ahead adds a field during a rolling deploy
        insertRaw(t, "emails", "{\"n\":3,\"kind\":\"mail\",\"locale\":\"de\",\"tags\":[1]}".getBytes());
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(handled).containsExactly(new Job(3, "mail"));
    }

    /** A row that does not decode moves to the dead letter group where one is declared. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_that_does_not_decode_moves_to_the_dead_letter_group_where_one_is_declared(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Object> undecoded = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(decodeFailuresInto(undecoded));
        List<Job> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(5).deadLetter("undecodable")
                .handle(acking(handled));
        long bad = insertRaw(t, "emails", "{\"n\": oops".getBytes());
        insertJobs(t, 1);
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'undecodable'") == 1
                && count(t, "processed_at is not null") == 1);
        assertThat(count(t, "id = " + bad + " and grp = 'undecodable' and processed_at is null")).isEqualTo(1);
        assertThat(undecoded).containsExactly(bad);
        assertThat(handled).containsExactly(new Job(0, "mail"));
    }

    /** A row that does not decode moves into the dead letter table where one is declared. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_that_does_not_decode_moves_into_the_dead_letter_table_where_one_is_declared(Form form) {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(5).deadLetterTable(dead)
                .handle((job, d) -> Outcome.ack());
        long bad = insertRaw(t, "emails", new byte[] {(byte) 0xff, 0, 1});
        broker.start();
        await().atMost(PATIENCE).until(() -> count(dead, "id = " + bad) == 1);
        assertThat(count(t, "1 = 1")).isZero();
    }

    /** A row dropped because it does not decode is logged as an error (skipped where the log is not read). */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_dropped_because_it_does_not_decode_is_logged_as_an_error_with_its_id_and_the_reason(
            Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        try (LogCapture log = LogCapture.start()) {
            long bad = insertRaw(t, "emails", "[1, 2, 3]".getBytes());
            broker.start();
            await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
            await().atMost(PATIENCE).until(() -> log.text().lines().anyMatch(line -> line.contains(" ERROR ")
                    && line.contains("row " + bad + " ") && line.contains(t.getName()) && line.contains("dropped")
                    && line.contains("Cannot deserialize")));
        }
    }


    // ================================================================ publishing and ids

    /** A publish without a payload into a payload table fails, naming the table and the role, and writes nothing. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_publish_without_a_payload_into_a_payload_table_fails_naming_the_table_and_the_role(
            Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        broker.start();
        var publisher = broker.publisher();
        for (Runnable publish : List.<Runnable>of(
                () -> publisher.publish(b, Message.of("emails", null)),
                () -> publisher.publish(dsl(), b, Message.row("emails")),
                () -> publisher.publishAll(b, List.of(Message.of("emails", new Job(1, "mail")),
                        Message.of("emails", null))))) {
            assertThatThrownBy(publish::run)
                    .isInstanceOf(TableQueueException.class)
                    .hasMessageContaining("\"" + t.getName() + "\"")
                    .hasMessageContaining("payload column \"payload\"");
        }
        assertThat(count(t, "1 = 1")).isZero();
    }

    /** A delivery gives its id in the id column's type, and refuses any other column. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_delivery_gives_its_id_in_the_type_of_the_id_column(Form form) {
        Jobs t = newTable();
        Jobs other = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        List<Long> ids = new CopyOnWriteArrayList<>();
        List<Throwable> refusals = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            Long id = d.id(t.ID);
            ids.add(id);
            for (Field<?> notTheId : List.of(other.ID, t.NOTE)) {
                try {
                    d.id(notTheId);
                } catch (IllegalArgumentException e) {
                    refusals.add(e);
                }
            }
            return Outcome.ack();
        });
        long id = insertJobs(t, 1).get(0);
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(ids).containsExactly(id);
        assertThat(refusals).hasSize(2).allSatisfy(e -> assertThat(e)
                .hasMessageContaining("\"" + t.getName() + "\"").hasMessageContaining("id column is \"id\""));
    }

    // ================================================================ the bad-data drill

    /** A drill of bad rows among good ones settles every row once, by its handler or the decode policy. */
    @Tag("drill")
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_drill_of_bad_rows_among_good_ones_settles_every_row_once_by_policy(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = inForm(RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).headers(t.HEADERS).payload(t.PAYLOAD)
                .lastError(t.LAST_ERROR), t, form);
        Map<Object, Integer> undecoded = new ConcurrentHashMap<>();
        Map<Object, Integer> settled = new ConcurrentHashMap<>();
        QueueBroker broker = broker(new BrokerListener() {
            @Override
            public void decodeFailed(Delivery delivery, Throwable failure) {
                undecoded.merge(delivery.id(), 1, Integer::sum);
            }

            @Override
            public void settled(Delivery delivery, Outcome outcome) {
                settled.merge(delivery.id(), 1, Integer::sum);
            }
        });
        Map<Integer, Integer> handled = new ConcurrentHashMap<>();
        Map<Integer, Map<String, String>> headers = new ConcurrentHashMap<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).maxAttempts(3).deadLetter("dead")
                .handle((job, d) -> {
                    handled.merge(job.n(), 1, Integer::sum);
                    headers.put(job.n(), d.headers());
                    return Outcome.ack();
                });
        Random random = new Random(DRILL_ROWS);
        List<Query> inserts = new ArrayList<>();
        Set<Integer> good = new HashSet<>();
        for (int i = 0; i < DRILL_ROWS; i++) {
            byte[] payload = null;
            String headerText = null;
            switch (i % 10) {
                case 0 -> {
                    // random bytes, never valid UTF-8 from the first one
                    payload = new byte[1 + random.nextInt(64)];
                    random.nextBytes(payload);
                    payload[0] = (byte) 0xff;
                }
                case 1 -> payload = (i % 20 == 1 ? "{\"n\": " + i : "not json " + i).getBytes();
                case 2 -> payload = "null".getBytes();
                case 3 -> payload = null;
                case 4 -> payload = List.of("[1, 2]", "\"text\"", "42", "true").get(i / 10 % 4).getBytes();
                default -> {
                    payload = ("{\"n\":" + i + ",\"kind\":\"mail\"}").getBytes();
                    headerText = switch (i % 10) {
                        case 5 -> List.of("[1, 2]", "42", "null", "not json", "{\"open\":").get(i / 10 % 5);
                        case 6 -> "{\"trace\":\"t-" + i + "\",\"context\":{\"depth\":[1,{\"x\":null}]},\"n\":" + i
                                + ",\"gone\":null}";
                        default -> null;
                    };
                    good.add(i);
                }
            }
            inserts.add(dsl().insertInto(t).set(t.GRP, "emails").set(t.PAYLOAD, payload).set(t.HEADERS, headerText));
        }
        for (int from = 0; from < inserts.size(); from += 500) {
            dsl().batch(inserts.subList(from, Math.min(from + 500, inserts.size()))).execute();
        }
        broker.start();
        int bad = DRILL_ROWS - good.size();
        await().atMost(Duration.ofMinutes(5)).until(() -> settled.size() == DRILL_ROWS);
        // every row settled once, by its handler or by the decode policy, and nothing is in work any more
        assertThat(settled.values()).containsOnly(1);
        assertThat(count(t, "processed_at is not null")).isEqualTo(good.size());
        assertThat(count(t, "grp = 'dead' and processed_at is null and last_error is not null")).isEqualTo(bad);
        assertThat(handled).containsOnlyKeys(good).allSatisfy((n, times) -> assertThat(times).isOne());
        assertThat(undecoded).hasSize(bad).allSatisfy((id, times) -> assertThat(times).isOne());
        // nothing came back: one delivery each (the lease and advisory claims count it on the row)
        assertThat(count(t, "attempt > " + (form == Form.ROW_LOCK ? 1 : 2))).isZero();
        // the headers were read as far as they decode
        headers.forEach((n, h) -> {
            switch (n % 10) {
                case 5 -> assertThat(h).isEmpty();
                case 6 -> assertThat(h).containsOnly(Map.entry("trace", "t-" + n),
                        Map.entry("context", "{\"depth\":[1,{\"x\":null}]}"), Map.entry("n", String.valueOf(n)));
                default -> assertThat(h).isEmpty();
            }
        });
    }

    // ================================================================ fixture

    /** A payload-mode binding with a headers column. */
    private static RoleBinding<Record> withHeaders(Jobs t, Form form) {
        return inForm(RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).headers(t.HEADERS).payload(t.PAYLOAD), t, form);
    }

    /** A handler that keeps each job it takes and acknowledges it. */
    private static Handler<Job> acking(List<Job> handled) {
        return (job, d) -> {
            handled.add(job);
            return Outcome.ack();
        };
    }

    /** A good job of the "emails" group whose headers column holds {@code headers} as it is. */
    private long insertWithHeaders(Jobs t, String headers) {
        return dsl().insertInto(t).set(t.GRP, "emails").set(t.HEADERS, headers)
                .set(t.PAYLOAD, "{\"n\":1,\"kind\":\"mail\"}".getBytes()).returning(t.ID).fetchOne().get(t.ID);
    }

    /** A listener that keeps the id of each row that did not decode. */
    private static BrokerListener decodeFailuresInto(List<Object> ids) {
        return new BrokerListener() {
            @Override
            public void decodeFailed(Delivery delivery, Throwable failure) {
                ids.add(delivery.id());
            }
        };
    }
}
