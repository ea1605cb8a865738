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
