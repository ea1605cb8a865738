package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.SchemaException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.SettableClock;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.Record;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What reaches a handler from rows as they are found in the table, and what a failure leaves behind: rows
 * that do not decode, headers columns of any content, handlers that throw, and the defaults that settle
 * them. Each database runs it through a small subclass that names its {@link TestDatabase}.
 */
public abstract class DecodingContract extends BrokerFixture {

    // ================================================================ headers

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
        List<Long> ids = new java.util.ArrayList<>();
        for (String headers : odd) {
            ids.add(insertWithHeaders(t, headers));
        }
        ids.add(insertWithHeaders(t, null));
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == ids.size());
        assertThat(undecoded).isEmpty();
        assertThat(seen).containsOnlyKeys(ids).allSatisfy((id, headers) -> assertThat(headers).isEmpty());
    }

    // ================================================================ payloads that do not decode

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

    // ================================================================ handlers that throw

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_handler_that_throws_is_logged_with_its_stack_trace(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(1).deadLetter("dead")
                .handle((job, d) -> {
                    throw new IllegalStateException("the mail server is down for " + t.getName());
                });
        try (LogCapture log = LogCapture.start()) {
            insertJobs(t, 1);
            broker.start();
            await().atMost(PATIENCE).until(() -> count(t, "grp = 'dead'") == 1);
            // the stack trace follows the log line: the exception, then its frames, the handler's first
            String failure = "java.lang.IllegalStateException: the mail server is down for " + t.getName();
            await().atMost(PATIENCE).until(() -> {
                List<String> lines = log.text().lines().toList();
                int at = lines.indexOf(failure);
                return at >= 0 && at + 1 < lines.size()
                        && lines.get(at + 1).startsWith("\tat dev.tablequeue.it.DecodingContract");
            });
        }
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_handler_that_throws_is_retried_after_a_growing_delay_with_jitter_by_default(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        SettableClock stopped = stoppedAMinuteAhead();
        Instant at = stopped.instant();
        QueueBroker broker = broker(stopped);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            throw new IllegalStateException("fails every time");
        });
        long id = insertJobs(t, 1).get(0);
        broker.start();
        // the first failure hides the row for half a second to a second
        await().atMost(PATIENCE).until(() -> attempts.size() == 1 && retryAfter(t, id).isAfter(at));
        assertThat(retryAfter(t, id)).isBetween(at.plusMillis(500), at.plusSeconds(1));
        await().during(POLL.multipliedBy(6)).atMost(PATIENCE).until(() -> attempts.size() == 1);
        // the second for one to two seconds
        stopped.advance(Duration.ofSeconds(5));
        Instant later = at.plusSeconds(5);
        await().atMost(PATIENCE).until(() -> attempts.size() == 2 && retryAfter(t, id).isAfter(later));
        assertThat(retryAfter(t, id)).isBetween(later.plusSeconds(1), later.plusSeconds(2));
        assertThat(attempts).containsExactly(1, 2);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void the_backoff_of_a_mount_takes_the_steps_it_is_given(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        SettableClock stopped = stoppedAMinuteAhead();
        Instant at = stopped.instant();
        QueueBroker broker = broker(stopped);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class)
                .onHandlerFailure(FailurePolicy.backoff(Duration.ofMinutes(2), Duration.ofMinutes(3)))
                .handle((job, d) -> {
                    throw new IllegalStateException("fails");
                });
        long id = insertJobs(t, 1).get(0);
        broker.start();
        await().atMost(PATIENCE).until(() -> retryAfter(t, id).isAfter(at));
        assertThat(retryAfter(t, id)).isBetween(at.plus(Duration.ofMinutes(1)), at.plus(Duration.ofMinutes(2)));
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_handler_that_throws_on_a_table_without_retry_after_is_held_before_it_is_retried(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = bindingWithout(t, form, "retry_after");
        QueueBroker broker = broker();
        List<Long> deliveredAt = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            deliveredAt.add(System.nanoTime());
            if (deliveredAt.size() < 3) {
                throw new IllegalStateException("fails twice");
            }
            return Outcome.ack();
        });
        insertJobs(t, 1);
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        // the worker holds the failed row for the first step of the backoff (half a second to a second),
        // then for the second (one to two seconds), instead of returning it at once
        assertThat(Duration.ofNanos(deliveredAt.get(1) - deliveredAt.get(0))).isGreaterThanOrEqualTo(
                Duration.ofMillis(500));
        assertThat(Duration.ofNanos(deliveredAt.get(2) - deliveredAt.get(1))).isGreaterThanOrEqualTo(
                Duration.ofSeconds(1));
    }

    // ================================================================ the last error

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_retry_after_a_failure_writes_its_class_and_message_as_the_last_error_and_an_ack_keeps_it(
            Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = withLastError(t, form);
        QueueBroker broker = broker();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        List<String> seenBySecond = new CopyOnWriteArrayList<>();
        long id = insertJobs(t, 1).get(0);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).onHandlerFailure(FailurePolicy.retry())
                .handle((job, d) -> {
                    attempts.add(d.attempt().orElseThrow());
                    if (attempts.size() == 1) {
                        throw new IllegalStateException("the mail server is down");
                    }
                    seenBySecond.add(lastError(t, id));
                    return Outcome.ack();
                });
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(attempts).containsExactly(1, 2);
        // an operator (and the second delivery) sees why the first failed
        assertThat(seenBySecond).containsExactly("java.lang.IllegalStateException: the mail server is down");
        assertThat(lastError(t, id)).isEqualTo("java.lang.IllegalStateException: the mail server is down");
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_dead_letter_keeps_why_its_row_failed_or_did_not_decode_in_the_last_error(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = withLastError(t, form);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(1).deadLetter("dead")
                .handle((job, d) -> {
                    throw new UnsupportedOperationException("no template for " + job.kind());
                });
        long failing = insertJobs(t, 1).get(0);
        long undecodable = insertRaw(t, "emails", "{\"n\":".getBytes());
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'dead'") == 2);
        assertThat(lastError(t, failing)).isEqualTo("java.lang.UnsupportedOperationException: no template for mail");
        assertThat(lastError(t, undecodable)).startsWith("com.fasterxml.jackson.").contains("end-of-input");
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_moved_into_the_dead_letter_table_carries_its_last_error(Form form) {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding<Record> b = withLastError(t, form);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(1).deadLetterTable(dead)
                .handle((job, d) -> {
                    throw new IllegalArgumentException("recipient rejected");
                });
        long id = insertJobs(t, 1).get(0);
        broker.start();
        await().atMost(PATIENCE).until(() -> count(dead, "id = " + id) == 1);
        assertThat(lastError(dead, id)).isEqualTo("java.lang.IllegalArgumentException: recipient rejected");
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_dropped_because_it_does_not_decode_keeps_the_reason_in_the_last_error(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = withLastError(t, form);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        long nothing = insertRaw(t, "emails", "null".getBytes());
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(lastError(t, nothing)).isEqualTo("java.lang.IllegalStateException: the payload of row " + nothing
                + " decodes to null");
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_last_error_is_cut_to_a_thousand_characters(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = withLastError(t, form);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(1).deadLetter("dead")
                .handle((job, d) -> {
                    throw new IllegalStateException("\u00e9".repeat(5_000));
                });
        long id = insertJobs(t, 1).get(0);
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'dead'") == 1);
        assertThat(lastError(t, id)).hasSize(1000).startsWith("java.lang.IllegalStateException: \u00e9\u00e9")
                .endsWith("\u00e9\u2026");
    }

    // ================================================================ declarations and publishing

    @ParameterizedTest
    @MethodSource("forms")
    public final void an_attempt_column_that_does_not_start_at_one_stops_the_start_saying_why(Form form) {
        Jobs t = newTable(ddl -> {
            String zero = ddl.replace("DEFAULT 1", "DEFAULT 0");
            assertThat(zero).isNotEqualTo(ddl);
            return zero;
        });
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(binding(t, form), "emails")).payload(Job.class).maxAttempts(3)
                .deadLetter("dead").handle((job, d) -> Outcome.ack());
        assertThatThrownBy(broker::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("\"attempt\"")
                .hasMessageContaining("defaults to 0")
                .hasMessageContaining("DEFAULT 1");
    }

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
            for (org.jooq.Field<?> notTheId : List.of(other.ID, t.NOTE)) {
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

    /**
     * How many rows the bad-data drill writes: 500 in the build, {@code -Dtablequeue.drill.rows=5000} for the
     * long run (see the README of the it module).
     */
    static final int DRILL_ROWS = Integer.getInteger("tablequeue.drill.rows", 500);

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
        java.util.Random random = new java.util.Random(DRILL_ROWS);
        List<org.jooq.Query> inserts = new java.util.ArrayList<>();
        java.util.Set<Integer> good = new java.util.HashSet<>();
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
    static RoleBinding<Record> withHeaders(Jobs t, Form form) {
        return inForm(RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).headers(t.HEADERS).payload(t.PAYLOAD), t, form);
    }

    /**
     * A clock of a test's own, stopped a minute ahead: the rows the database stamped are due, and nothing
     * else moves until the test advances it.
     */
    static SettableClock stoppedAMinuteAhead() {
        SettableClock stopped = new SettableClock();
        stopped.set(Instant.now().plus(Duration.ofMinutes(1)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        return stopped;
    }

    /** A broker of the fixture's on {@code clock}. */
    QueueBroker broker(SettableClock clock) {
        QueueBroker broker = QueueBroker.builder(pool).clock(clock).pollInterval(POLL).build();
        brokers.add(broker);
        return broker;
    }

    /** A handler that keeps each job it takes and acknowledges it. */
    static Handler<Job> acking(List<Job> handled) {
        return (job, d) -> {
            handled.add(job);
            return Outcome.ack();
        };
    }

    /** {@link Jobs#binding} with the last-error column. */
    static RoleBinding<Record> withLastError(Jobs t, Form form) {
        return inForm(RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).lastError(t.LAST_ERROR), t, form);
    }

    /** The last_error column of row {@code id}. */
    String lastError(Jobs t, long id) {
        return dsl().select(t.LAST_ERROR).from(t).where(t.ID.eq(id)).fetchOne(t.LAST_ERROR);
    }

    /** A good job of the "emails" group whose headers column holds {@code headers} as it is. */
    long insertWithHeaders(Jobs t, String headers) {
        return dsl().insertInto(t).set(t.GRP, "emails").set(t.HEADERS, headers)
                .set(t.PAYLOAD, "{\"n\":1,\"kind\":\"mail\"}".getBytes()).returning(t.ID).fetchOne().get(t.ID);
    }

    /** A new {@link Jobs} table whose DDL {@code change} rewrites. */
    Jobs newTable(java.util.function.UnaryOperator<String> change) {
        String name = "jobs" + TABLES.incrementAndGet();
        db.execute(change.apply(createTable(name)));
        return new Jobs(name, timeType());
    }

    static BrokerListener decodeFailuresInto(List<Object> ids) {
        return new BrokerListener() {
            @Override
            public void decodeFailed(Delivery delivery, Throwable failure) {
                ids.add(delivery.id());
            }
        };
    }

    /** The retry_after of row {@code id}, whatever type the database reads it in. */
    Instant retryAfter(Jobs t, long id) {
        Object value = dsl().select(t.RETRY_AFTER).from(t).where(t.ID.eq(id)).fetchOne(0);
        if (value instanceof OffsetDateTime odt) {
            return odt.toInstant();
        }
        if (value instanceof LocalDateTime ldt) {
            return ldt.toInstant(ZoneOffset.UTC);
        }
        throw new IllegalStateException("retry_after read as " + value);
    }
}
