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
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.testkit.SettableClock;
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

    // ================================================================ handlers that throw

    // ================================================================ declarations and publishing

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

    // ================================================================ fixture

    /** {@code builder} in {@code form}: the lease column or an advisory key on the id added. */
    static RoleBinding<Record> inForm(RoleBinding.Builder<Record> builder, Jobs t, Form form) {
        return switch (form) {
            case ROW_LOCK -> builder.build();
            case LEASE -> builder.lease(t.LOCKED_UNTIL).build();
            case ADVISORY -> builder.advisory(t.getName() + "-{id}").build();
        };
    }

    /** A payload-mode binding with a headers column. */
    static RoleBinding<Record> withHeaders(Jobs t, Form form) {
        return inForm(RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).headers(t.HEADERS).payload(t.PAYLOAD), t, form);
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
