package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.AlreadySubscribedException;
import dev.tablequeue.BrokerClosedException;
import dev.tablequeue.LeaseLostException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ShutdownReport;
import dev.tablequeue.testkit.LiveDatabase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the broker does, on each database, in every form the database takes. Each database runs this suite
 * through a small subclass that names its {@link TestDatabase}; the tests are final. A test of a form runs
 * for each form the database takes, and one test asserts that the others are refused when the broker
 * starts; a test that needs a form the database lacks is skipped (an assumption), never passed unrun.
 */
public abstract class BrokerContract extends BrokerFixture {

    /** The row lock and lease forms, where this database takes them. */
    final List<Form> rowLockAndLease() {
        return forms().stream().filter(f -> f != Form.ADVISORY).toList();
    }

    /** The row lock and advisory forms, where this database takes them. */
    final List<Form> rowLockAndAdvisory() {
        return forms().stream().filter(f -> f != Form.LEASE).toList();
    }

    @Test
    public final void a_form_the_database_does_not_take_stops_the_start_naming_the_form() {
        List<Form> refused = java.util.Arrays.stream(Form.values()).filter(f -> !forms().contains(f)).toList();
        assumeTrue(!refused.isEmpty(), database() + " takes every form");
        for (Form form : refused) {
            Jobs t = newTable();
            QueueBroker broker = broker();
            broker.subscribe(InboxQueue.of(binding(t, form), "emails")).payload(Job.class)
                    .handle((job, d) -> Outcome.ack());
            assertThat(startsOrIsRefused(broker, form)).isFalse();
        }
    }

    // ================================================================ outcomes

    @ParameterizedTest
    @MethodSource("forms")
    public final void every_row_is_delivered_once_and_acknowledged(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(3).handle((job, d) -> {
            seen.merge(job.n(), 1, Integer::sum);
            return Outcome.ack();
        });
        broker.start();
        for (int i = 0; i < 20; i++) {
            broker.publisher().publish(b, Message.of("emails", new Job(i, "mail")));
        }
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 20);
        assertThat(seen).hasSize(20).allSatisfy((n, times) -> assertThat(times).isEqualTo(1));
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void an_own_acknowledgement_runs_in_place_of_the_dialects(Form form) {
        Jobs t = newTable();
        RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                // a sent email stays in its table, in the "sent" group, for an audit
                .own(dev.tablequeue.binding.Event.ACK, (ctx, id) -> ctx.update(t).set(t.GRP, "sent")
                        .where(t.ID.eq((Long) id)).execute());
        RoleBinding<Record> b = switch (form) {
            case ROW_LOCK -> builder.build();
            case LEASE -> builder.lease(t.LOCKED_UNTIL).build();
            case ADVISORY -> builder.advisory(t.getName() + "-{id}").build();
        };
        QueueBroker broker = broker();
        List<Boolean> virtual = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            virtual.add(Thread.currentThread().isVirtual());
            return Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 2);
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 2);
        assertThat(count(t, "processed_at is not null")).isZero();
        // handlers run on virtual threads, whatever threads the database work needs
        assertThat(virtual).containsExactly(true, true);
    }

    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void an_own_claim_and_fetch_take_and_read_the_rows(Form form) {
        Jobs t = newTable();
        boolean lease = form == Form.LEASE;
        RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .ownClaim((ctx, group, limit) -> {
                    var select = ctx.select(t.ID).from(t).where(t.GRP.eq(group)).and(t.PROCESSED_AT.isNull())
                            .and(lease ? t.LOCKED_UNTIL.isNull() : DSL.noCondition())
                            .orderBy(t.ID).limit(limit);
                    return lease ? select.fetch(t.ID) : select.forUpdate().skipLocked().fetch(t.ID);
                })
                .ownFetch((ctx, ids) -> ctx.select(t.ID, t.ATTEMPT,
                                DSL.inline("{\"n\":99,\"kind\":\"own fetch\"}".getBytes()).as("payload"))
                        .from(t).where(t.ID.in(ids)).fetch());
        RoleBinding<Record> b = lease ? builder.lease(t.LOCKED_UNTIL).build() : builder.build();
        QueueBroker broker = broker();
        List<Job> jobs = new CopyOnWriteArrayList<>();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            jobs.add(job);
            attempts.add(d.attempt().orElseThrow());
            return Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 2);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 2);
        assertThat(jobs).extracting(Job::kind).containsOnly("own fetch");
        assertThat(attempts).containsOnly(1);
        if (lease) {
            // the dialect stamped the lease once and counted the attempt once
            assertThat(count(t, "attempt = 2 and locked_until is not null")).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void an_acknowledgement_deletes_a_row_where_the_table_keeps_no_processed_at(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = bindingWithout(t, form, "processed_at");
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        publish(broker, b, "emails", 5);
        await().atMost(PATIENCE).until(() -> count(t, "1 = 1") == 0);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_retry_returns_the_row_and_its_next_delivery_reads_one_more_attempt(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return attempts.size() < 3 ? Outcome.retry() : Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 1);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(attempts).containsExactly(1, 2, 3);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_delayed_retry_hides_the_row_until_its_time_comes(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return attempts.size() == 1 ? Outcome.retryAfter(Duration.ofHours(1)) : Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 1);
        await().atMost(PATIENCE).until(() -> attempts.size() == 1 && count(t, "locked_until is null") == 1);
        // many polls pass while the row's time has not come
        await().during(Duration.ofMillis(500)).atMost(PATIENCE).until(() -> attempts.size() == 1);
        clock.advance(Duration.ofHours(2));
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(attempts).containsExactly(1, 2);
    }

    @Test
    public final void a_delayed_retry_on_a_table_without_retry_after_returns_the_row_at_once() {
        Jobs t = newTable();
        Form form = forms().contains(Form.LEASE) ? Form.LEASE : forms().iterator().next();
        RoleBinding<Record> b = bindingWithout(t, form, "retry_after");
        QueueBroker broker = broker();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return attempts.size() == 1 ? Outcome.retryAfter(Duration.ofHours(1)) : Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 1);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(attempts).containsExactly(1, 2);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_drop_finishes_the_row(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        AtomicInteger handled = new AtomicInteger();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.incrementAndGet();
            return Outcome.drop();
        });
        broker.start();
        publish(broker, b, "emails", 3);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 3);
        assertThat(handled).hasValue(3);
    }

    // ================================================================ dead letters

    @ParameterizedTest
    @MethodSource("forms")
    public final void spent_attempts_move_the_row_to_the_dead_letter_group_keeping_its_attempt(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        List<String> deadLettered = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(new BrokerListener() {
            @Override
            public void deadLettered(Delivery delivery, String destination) {
                deadLettered.add(destination);
            }
        });
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(2).deadLetter("escalated")
                .handle((job, d) -> {
                    attempts.add(d.attempt().orElseThrow());
                    return Outcome.retry();
                });
        broker.start();
        publish(broker, b, "emails", 1);
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'escalated'") == 1);
        assertThat(attempts).containsExactly(1, 2);
        assertThat(deadLettered).containsExactly("escalated");
        // the row keeps the attempt its last delivery left: counted by the claim in the lease and advisory forms
        long expected = form == Form.ROW_LOCK ? 2 : 3;
        assertThat(count(t, "attempt = " + expected + " and processed_at is null")).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void spent_attempts_move_the_row_into_the_dead_letter_table_with_every_column(Form form) {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).group(t.GRP).partitionKey(t.PARTITION_KEY)
                .retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .data(t.NOTE);
        RoleBinding<Record> b = switch (form) {
            case ROW_LOCK -> builder.build();
            case LEASE -> builder.lease(t.LOCKED_UNTIL).build();
            case ADVISORY -> builder.advisory(t.getName() + "-{id}").build();
        };
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(1).deadLetterTable(dead)
                .handle((job, d) -> {
                    throw new IllegalStateException("the mail server is down");
                });
        broker.start();
        broker.publisher().publish(b, Message.of("emails", new Job(7, "mail")).set(t.NOTE, "keep me")
                .set(t.PARTITION_KEY, "customer-9"));
        await().atMost(PATIENCE).until(() -> count(dead, "1 = 1") == 1);
        assertThat(count(t, "1 = 1")).isZero();
        Record row = dsl().selectFrom(dead).fetchOne();
        assertThat(row.get(dead.NOTE)).isEqualTo("keep me");
        assertThat(row.get(dead.PARTITION_KEY)).isEqualTo("customer-9");
        assertThat(row.get(dead.GRP)).isEqualTo("emails");
        assertThat(new String(row.get(dead.PAYLOAD))).contains("\"n\":7");
    }

    @Test
    public final void a_handler_that_throws_is_retried_and_counted_toward_the_cap() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = broker();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).maxAttempts(3).deadLetter("dead")
                .handle((job, d) -> {
                    attempts.add(d.attempt().orElseThrow());
                    throw new IllegalStateException("fails every time");
                });
        broker.start();
        publish(broker, b, "emails", 1);
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'dead'") == 1);
        assertThat(attempts).containsExactly(1, 2, 3);
    }

    // ================================================================ rows that do not decode

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_that_does_not_decode_is_dropped_and_the_loop_goes_on(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Object> undecoded = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(new BrokerListener() {
            @Override
            public void decodeFailed(Delivery delivery, Throwable failure) {
                undecoded.add(delivery.id());
            }
        });
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        broker.start();
        long bad = insertRaw(t, "emails", "not json at all".getBytes());
        publish(broker, b, "emails", 2);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 3);
        assertThat(undecoded).containsExactly(bad);
        assertThat(handled).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    public final void a_decode_policy_that_delays_keeps_the_row_in_the_table() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class)
                .onDecodeFailure(FailurePolicy.retryAfter(Duration.ofMinutes(10)))
                .handle((job, d) -> Outcome.ack());
        broker.start();
        long bad = insertRaw(t, "emails", "{".getBytes());
        await().atMost(PATIENCE).until(() -> count(t, "id = " + bad + " and attempt = 2") == 1);
        assertThat(count(t, "processed_at is not null")).isZero();
    }

    // ================================================================ declarations and startup checks

    @Test
    public final void declarations_a_table_cannot_carry_stop_the_start_naming_what_is_missing() {
        Jobs t = newTable();
        Form form = preferredForm();
        RoleBinding<Record> b = binding(t, form);
        assertRefused(b, m -> m.payload(Job.class).maxAttempts(3), "maxAttempts(3) needs a destination");
        assertRefused(b, m -> m.payload(Job.class).deadLetter("dead"), "without maxAttempts");
        assertRefused(bindingWithout(t, form, "attempt"), m -> m.payload(Job.class).maxAttempts(2).deadLetter("x"),
                "attempt column");
        assertRefused(b, m -> m.rows(), "payload mode");
        assertRefused(bindingWithout(t, form, "grp"), m -> m.payload(Job.class).maxAttempts(2).deadLetter("x"),
                "no group column");
        if (form != Form.LEASE) {
            assertRefused(b, m -> m.payload(Job.class).lease(Duration.ofSeconds(5)), "holds no lease");
        }
    }

    @Test
    public final void a_missing_table_or_column_stops_the_start_naming_the_table_and_the_statement() {
        Jobs missing = new Jobs("never_created_" + TABLES.incrementAndGet(), timeType());
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(binding(missing, preferredForm()), "emails")).payload(Job.class)
                .handle((job, d) -> Outcome.ack());
        assertThatThrownBy(broker::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(missing.getName())
                .hasMessageContaining("statement");

        Jobs t = newTable();
        db.execute("ALTER TABLE " + t.getName() + " DROP COLUMN note");
        RoleBinding<Record> rows = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).lease(t.LOCKED_UNTIL).build();
        QueueBroker other = broker();
        other.subscribe(InboxQueue.of(rows, "emails")).rows().handle((row, d) -> Outcome.ack());
        assertThatThrownBy(other::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("note");
    }

    @Test
    public final void a_table_without_a_group_column_is_one_queue_read_whole() {
        Jobs t = newTable();
        RoleBinding<Record> b = bindingWithout(t, preferredForm(), "grp");
        QueueBroker broker = broker();
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "everything")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        broker.start();
        broker.publisher().publish(b, Message.of("signups", new Job(1, "a")));
        broker.publisher().publish(b, Message.of("welcome", new Job(2, "b")));
        await().atMost(PATIENCE).until(() -> handled.size() == 2);
        assertThat(handled).containsExactlyInAnyOrder(1, 2);
        assertThat(count(t, "grp is null")).isEqualTo(2);
    }

    @Test
    public final void a_second_subscription_to_a_queue_is_refused() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        assertThatThrownBy(() -> broker.subscribe(InboxQueue.of(b, "emails")))
                .isInstanceOf(AlreadySubscribedException.class)
                .hasMessageContaining(t.getName());
        // another group of the same table is another queue
        broker.subscribe(InboxQueue.of(b, "invoices")).payload(Job.class).handle((job, d) -> Outcome.ack());
    }

    // ================================================================ publishing

    @Test
    public final void a_publish_in_the_callers_transaction_commits_or_rolls_back_with_it() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = broker();
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        broker.start();
        try {
            dsl().transaction(tx -> {
                broker.publisher().publish(tx.dsl(), b, Message.of("emails", new Job(1, "rolled back")));
                throw new IllegalStateException("the order failed");
            });
        } catch (IllegalStateException expected) {
            // the transaction rolled back
        }
        dsl().transaction(tx -> broker.publisher().publish(tx.dsl(), b, Message.of("emails", new Job(2, "kept"))));
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(handled).containsExactly(2);
        assertThat(count(t, "1 = 1")).isEqualTo(1);
    }

    @Test
    public final void publish_all_writes_its_messages_together_or_none_of_them() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = broker();
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        broker.start();
        List<Message> five = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            five.add(Message.of("emails", new Job(i, "batch")));
        }
        broker.publisher().publishAll(b, five);

        // in the caller's transaction: rolled back with it
        try {
            dsl().transaction(tx -> {
                broker.publisher().publishAll(tx.dsl(), b, List.of(Message.of("emails", new Job(10, "rolled back")),
                        Message.of("emails", new Job(11, "rolled back"))));
                throw new IllegalStateException("the order failed");
            });
        } catch (IllegalStateException expected) {
            // the transaction rolled back
        }
        // a message the table cannot keep fails the whole batch, before any row is written
        assertThatThrownBy(() -> broker.publisher().publishAll(b, List.of(Message.of("emails", new Job(20, "fine")),
                Message.of("emails", new Job(21, "unwritable"))
                        .set(DSL.field(DSL.name("no_such_column"), Integer.class), 1))))
                .isInstanceOf(dev.tablequeue.TableQueueException.class)
                .hasMessageContaining(t.getName());

        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 5);
        assertThat(handled).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(count(t, "1 = 1")).isEqualTo(5);
    }

    @Test
    public final void a_publish_wakes_its_subscription_before_the_poll_interval() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = QueueBroker.builder(pool).clock(clock).pollInterval(Duration.ofHours(1)).build();
        brokers.add(broker);
        CountDownLatch handled = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.countDown();
            return Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 1);
        await().atMost(PATIENCE).until(() -> handled.getCount() == 0);
    }

    @Test
    public final void routes_lead_names_into_tables_by_exact_name_then_longest_prefix() {
        Jobs mails = newTable();
        Jobs reports = newTable();
        Jobs audits = newTable();
        RoleBinding<Record> mailQueue = binding(mails, preferredForm());
        RoleBinding<Record> reportQueue = binding(reports, preferredForm());
        RoleBinding<Record> auditQueue = binding(audits, preferredForm());
        QueueBroker broker = QueueBroker.builder(pool).clock(clock).pollInterval(POLL)
                .route("emails", mailQueue)
                .route("reports.*", reportQueue)
                .route("reports.audit.*", auditQueue, (ctx, message, payload) -> ctx.insertInto(audits)
                        .set(audits.GRP, message.name())
                        .set(audits.NOTE, "written by the service's own insert")
                        .set(audits.PAYLOAD, payload)
                        .execute())
                .build();
        brokers.add(broker);
        broker.publisher().publish("emails", new Job(1, "mail"));
        broker.publisher().publish("reports.daily", new Job(2, "report"));
        broker.publisher().publish(Message.of("reports.audit.q3", new Job(3, "audit")));
        assertThat(count(mails, "grp = 'emails'")).isEqualTo(1);
        assertThat(count(reports, "grp = 'reports.daily'")).isEqualTo(1);
        assertThat(count(audits, "grp = 'reports.audit.q3' and note = 'written by the service''s own insert'"))
                .isEqualTo(1);
        assertThatThrownBy(() -> broker.publisher().publish("invoices", new Job(4, "nowhere")))
                .isInstanceOf(dev.tablequeue.NoRouteException.class)
                .hasMessageContaining("invoices");
        assertThatThrownBy(() -> broker.publisher().publish(mailQueue,
                Message.of("emails", new Job(5, "x")).set(mails.NOTE, "not written by the insert")))
                .isInstanceOf(TableQueueException.class)
                .hasMessageContaining("note");
    }

    @Test
    public final void a_publish_after_close_fails() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = broker();
        broker.start();
        broker.close();
        assertThatThrownBy(() -> broker.publisher().publish(b, Message.of("emails", new Job(1, "late"))))
                .isInstanceOf(BrokerClosedException.class);
    }

    @Test
    public final void headers_and_the_partition_key_reach_the_delivery() {
        Jobs t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).partitionKey(t.PARTITION_KEY)
                .attempt(t.ATTEMPT).headers(t.HEADERS).payload(t.PAYLOAD).processedAt(t.PROCESSED_AT)
                .lease(t.LOCKED_UNTIL).build();
        QueueBroker broker = broker();
        AtomicReference<Delivery> seen = new AtomicReference<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            seen.set(d);
            return Outcome.ack();
        });
        broker.start();
        broker.publisher().publish(b, Message.of("emails", new Job(1, "mail")).header("trace", "t-1")
                .header("tenant", "acme").set(t.PARTITION_KEY, "customer-4"));
        await().atMost(PATIENCE).until(() -> seen.get() != null);
        assertThat(seen.get().headers()).containsEntry("trace", "t-1").containsEntry("tenant", "acme");
        assertThat(seen.get().partitionKey()).isEqualTo("customer-4");
        assertThat(seen.get().queue()).isEqualTo("emails");
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void row_mode_hands_the_handler_the_row(Form form) {
        Jobs t = newTable();
        RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).data(t.NOTE);
        RoleBinding<Record> b = switch (form) {
            case ROW_LOCK -> builder.build();
            case LEASE -> builder.lease(t.LOCKED_UNTIL).build();
            case ADVISORY -> builder.advisory("row-{id}").build();
        };
        QueueBroker broker = broker();
        List<String> notes = new CopyOnWriteArrayList<>();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).rows().handle((row, d) -> {
            notes.add(row.get(t.NOTE));
            attempts.add(row.get(t.ATTEMPT));
            return Outcome.ack();
        });
        broker.start();
        broker.publisher().publish(b, Message.row("emails").set(t.NOTE, "a note"));
        await().atMost(PATIENCE).until(() -> notes.size() == 1);
        assertThat(notes).containsExactly("a note");
        assertThat(attempts).containsExactly(1);
    }

    // ================================================================ concurrency

    @ParameterizedTest
    @MethodSource("forms")
    public final void two_brokers_with_four_workers_each_deliver_a_thousand_rows_exactly_once(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        List<QueueBroker> two = List.of(broker(), broker());
        for (QueueBroker broker : two) {
            broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(4).handle((job, d) -> {
                seen.merge(job.n(), 1, Integer::sum);
                return Outcome.ack();
            });
        }
        two.get(0).start();
        insertMany(t, "bulk", 1000);
        two.get(1).start();
        await().atMost(Duration.ofMinutes(3)).until(() -> count(t, "processed_at is not null") == 1000);
        assertThat(seen).hasSize(1000);
        assertThat(seen.values()).containsOnly(1);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void workers_run_deliveries_side_by_side(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        CountDownLatch together = new CountDownLatch(3);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(3).handle((job, d) -> {
            together.countDown();
            // each handler holds its delivery until all three are in work at once
            return together.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
        });
        broker.start();
        publish(broker, b, "emails", 3);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 3);
        assertThat(together.getCount()).isZero();
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_subscription_never_has_more_deliveries_in_work_than_workers(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = broker();
        AtomicInteger inWork = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(3).handle((job, d) -> {
            most.accumulateAndGet(inWork.incrementAndGet(), Math::max);
            try {
                return letGo.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
            } finally {
                inWork.decrementAndGet();
            }
        });
        broker.start();
        publish(broker, b, "emails", 12);
        await().atMost(PATIENCE).until(() -> inWork.get() >= 3);
        // claims go on for several poll intervals while every worker is busy, and add no fourth delivery
        await().during(POLL.multipliedBy(6)).atMost(PATIENCE).until(() -> inWork.get() == 3);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 12);
        assertThat(most).hasValue(3);
    }

    @ParameterizedTest
    @MethodSource("rowLockAndAdvisory")
    public final void a_subscription_never_takes_the_pools_last_connection(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        try (HikariDataSource small = db.pool(3)) {
            small.setConnectionTimeout(5_000);
            QueueBroker broker = QueueBroker.builder(small).clock(clock).pollInterval(POLL).build();
            brokers.add(broker);
            AtomicInteger inWork = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            List<Integer> queried = new CopyOnWriteArrayList<>();
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(8).handle((job, d) -> {
                most.accumulateAndGet(inWork.incrementAndGet(), Math::max);
                try {
                    // the handler's own query still finds a connection
                    queried.add(d.db().selectOne().fetchOne(0, Integer.class));
                    return Outcome.ack();
                } finally {
                    inWork.decrementAndGet();
                }
            });
            broker.start();
            publish(broker, b, "emails", 12);
            await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 12);
            if (form == Form.ADVISORY) {
                // each delivery holds a connection of its own: two of the pool's three
                assertThat(most.get()).isBetween(1, 2);
            } else {
                // a row lock claim holds one connection for all the rows it took
                assertThat(most.get()).isBetween(1, 8);
            }
            assertThat(queried).hasSize(12).containsOnly(1);
            broker.close();
        }
    }

    @Test
    public final void slow_handlers_in_several_row_lock_claims_leave_the_free_workers_claiming() {
        assumeTrue(forms().contains(Form.ROW_LOCK), database() + " takes no row lock form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ROW_LOCK);
        QueueBroker broker = broker();
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicInteger slowInWork = new AtomicInteger();
        AtomicInteger fastHandled = new AtomicInteger();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            if (job.kind().equals("slow")) {
                slowInWork.incrementAndGet();
                return letGo.await(PATIENCE.toSeconds(), SECONDS) ? Outcome.ack() : Outcome.retry();
            }
            fastHandled.incrementAndGet();
            return Outcome.ack();
        });
        // each publishAll commits its rows together, so one claim takes them all: three claims, each with a
        // slow handler, whose fast rows wait for their claim's commit
        broker.publisher().publishAll(b, jobs("slow", "mail", "mail", "mail"));
        broker.start();
        await().atMost(PATIENCE).until(() -> slowInWork.get() == 1 && fastHandled.get() == 3);
        broker.publisher().publishAll(b, jobs("slow", "mail", "mail"));
        await().atMost(PATIENCE).until(() -> slowInWork.get() == 2 && fastHandled.get() == 5);
        broker.publisher().publishAll(b, jobs("slow"));
        await().atMost(PATIENCE).until(() -> slowInWork.get() == 3);
        // eight rows are claimed and not committed, three workers busy: the fourth worker still takes new rows
        broker.publisher().publishAll(b, jobs("mail", "mail", "mail", "mail", "mail"));
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 5);
        assertThat(fastHandled).hasValue(10);
        assertThat(slowInWork).hasValue(3);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 13);
    }

    private static List<Message> jobs(String... kinds) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < kinds.length; i++) {
            messages.add(Message.of("emails", new Job(i, kinds[i])));
        }
        return messages;
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void an_outcome_is_written_without_waiting_for_the_next_poll(Form form) throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        insertJobs(t, 1);
        // the claim that finds the queue empty waits a whole poll interval; the acknowledgement must not
        QueueBroker broker = QueueBroker.builder(pool).clock(clock).pollInterval(Duration.ofSeconds(60)).build();
        brokers.add(broker);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(2).handle((job, d) -> {
            started.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        assertThat(started.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        // the second worker's claim found nothing: the claim thread waits for its next poll
        Thread claims = Thread.getAllStackTraces().keySet().stream()
                .filter(th -> th.getName().startsWith("tablequeue-" + t.getName() + "-") && th.getName().contains("-claim"))
                .findFirst().orElseThrow();
        await().atMost(PATIENCE).during(Duration.ofMillis(300))
                .until(() -> claims.getState() == Thread.State.TIMED_WAITING);
        letGo.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> count(t, "processed_at is not null") == 1);
    }

    @Test
    public final void an_advisory_claim_tries_its_candidates_on_the_free_workers_connections_side_by_side() {
        // SQLite takes one writer at a time: its candidates are tried one after another
        assumeTrue(forms().contains(Form.ADVISORY) && engine() != LiveDatabase.Engine.SQLITE,
                "the advisory form's candidates are tried side by side only where writers run side by side");
        Jobs t = newTable();
        insertJobs(t, 2);
        boolean postgres = engine() == LiveDatabase.Engine.POSTGRES;
        String lock = postgres ? "select pg_try_advisory_lock(hashtext(?))" : "select get_lock(?, 0)";
        String unlock = postgres ? "select pg_advisory_unlock(hashtext(?))" : "select release_lock(?)";
        CountDownLatch bothLocking = new CountDownLatch(2);
        java.util.concurrent.atomic.AtomicBoolean waitedAlone = new java.util.concurrent.atomic.AtomicBoolean();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory(t.getName() + "-{id}")
                .ownLock((ctx, key) -> {
                    // each of the two candidates' locks waits here until the other one is being taken too
                    bothLocking.countDown();
                    try {
                        if (!bothLocking.await(5, SECONDS)) {
                            waitedAlone.set(true);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return truth(ctx.fetchValue(lock, key));
                })
                .ownUnlock((ctx, key) -> truth(ctx.fetchValue(unlock, key)))
                .build();
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(2).handle((job, d) -> Outcome.ack());
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 2);
        assertThat(waitedAlone).isFalse();
    }

    private static boolean truth(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.longValue() == 1L;
    }

    @Test
    public final void a_settlement_that_fails_in_a_lease_batch_costs_only_its_own_row() {
        assumeTrue(forms().contains(Form.LEASE), database() + " takes no lease form");
        Jobs t = newTable();
        List<Long> ids = insertJobs(t, 8);
        long bad = ids.get(3);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).lease(t.LOCKED_UNTIL)
                // one row's acknowledgement fails in the database (on PostgreSQL it aborts the transaction)
                .own(dev.tablequeue.binding.Event.ACK, (ctx, id) -> {
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) id)).execute();
                    if ((Long) id == bad) {
                        ctx.execute("update no_such_table set x = 1");
                    }
                })
                .build();
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = broker(settlementFailuresInto(failures));
        CountDownLatch together = new CountDownLatch(8);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(8).handle((job, d) -> {
            // the eight outcomes arrive at the settlement at about the same time, and go into its batches
            together.countDown();
            together.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 7 && failures.size() == 1);
        assertThat(failures).containsOnlyKeys(bad);
        assertThat(failures.get(bad)).hasMessageContaining("no_such_table");
        assertThat(dsl().fetchValue(DSL.select(t.GRP).from(t).where(t.ID.eq(bad)))).isEqualTo("emails");
    }

    @Test
    public final void a_failed_settlement_rolls_back_the_rows_its_row_lock_claim_took_and_they_return() {
        assumeTrue(forms().contains(Form.ROW_LOCK), database() + " takes no row lock form");
        Jobs t = newTable();
        List<Long> ids = insertJobs(t, 4);
        long bad = ids.get(2);
        java.util.concurrent.atomic.AtomicBoolean failOnce = new java.util.concurrent.atomic.AtomicBoolean(true);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .own(dev.tablequeue.binding.Event.ACK, (ctx, id) -> {
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) id)).execute();
                    if ((Long) id == bad && failOnce.getAndSet(false)) {
                        ctx.execute("update no_such_table set x = 1");
                    }
                })
                .build();
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = broker(settlementFailuresInto(failures));
        Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            deliveries.merge(d.id(t.ID), 1, Integer::sum);
            return Outcome.ack();
        });
        broker.start();
        // the first claim takes the four rows into one transaction; the failed acknowledgement rolls it back,
        // the four rows return, and the next claims acknowledge them
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 4);
        assertThat(failures).containsOnlyKeys(ids);
        assertThat(failures.get(bad)).hasMessageContaining("no_such_table");
        for (long id : ids) {
            if (id != bad) {
                assertThat(failures.get(id)).isInstanceOf(dev.tablequeue.BatchRolledBackException.class)
                        .hasMessageContaining(t.getName()).hasMessageContaining("back in the queue");
            }
        }
        assertThat(deliveries).containsOnlyKeys(ids).allSatisfy((id, n) -> assertThat(n).isEqualTo(2));
    }

    // ================================================================ leases

    @Test
    public final void a_late_settlement_after_the_lease_ran_out_fails_and_changes_nothing() throws Exception {
        assumeTrue(forms().contains(Form.LEASE), database() + " takes no lease form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        QueueBroker first = broker(new BrokerListener() {
            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failures.add(failure);
            }
        });
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        first.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        first.start();
        publish(first, b, "emails", 1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();

        // the lease runs out (the host clock moves past it), and another broker claims the row
        clock.advance(Duration.ofMinutes(5));
        List<Integer> secondAttempts = new CopyOnWriteArrayList<>();
        QueueBroker second = broker();
        second.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            secondAttempts.add(d.attempt().orElseThrow());
            return Outcome.retryAfter(Duration.ofHours(1));
        });
        second.start();
        await().atMost(PATIENCE).until(() -> secondAttempts.size() == 1);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> failures.size() == 1);
        assertThat(failures.get(0)).isInstanceOf(LeaseLostException.class).hasMessageContaining(t.getName());
        assertThat(secondAttempts).containsExactly(2);
        assertThat(count(t, "processed_at is null")).isEqualTo(1);
    }

    @Test
    public final void the_keeper_extends_the_lease_while_the_handler_runs() throws Exception {
        assumeTrue(forms().contains(Form.LEASE), database() + " takes no lease form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        QueueBroker broker = QueueBroker.builder(pool).pollInterval(POLL).lease(Duration.ofSeconds(1)).build();
        brokers.add(broker);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        Instant first = lockedUntil(t);
        await().atMost(PATIENCE).until(() -> lockedUntil(t).isAfter(first.plusSeconds(1)));
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
    }

    // ================================================================ shutdown

    @Test
    public final void close_releases_the_locks_of_deliveries_in_work_and_their_rows_return() throws Exception {
        assumeTrue(forms().contains(Form.ADVISORY), database() + " takes no advisory form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ADVISORY);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        QueueBroker first = QueueBroker.builder(pool).clock(clock).pollInterval(POLL)
                .drainTimeout(Duration.ofMillis(200)).listener(new BrokerListener() {
                    @Override
                    public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                        failures.add(failure);
                    }
                }).build();
        brokers.add(first);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        first.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        first.start();
        publish(first, b, "emails", 1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        ShutdownReport report = first.close();
        assertThat(report.locksReleased()).isEqualTo(1);
        assertThat(report.deliveriesAbandoned()).isEqualTo(1);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> failures.size() == 1);
        assertThat(failures.get(0)).isInstanceOf(BrokerClosedException.class);

        List<Integer> again = new CopyOnWriteArrayList<>();
        QueueBroker second = broker();
        second.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            again.add(d.attempt().orElseThrow());
            return Outcome.ack();
        });
        second.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(again).containsExactly(2);
    }

    @Test
    public final void close_waits_for_handlers_in_work_to_settle() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = broker();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        Thread.ofVirtual().start(letGo::countDown);
        ShutdownReport report = broker.close();
        assertThat(report.deliveriesAbandoned()).isZero();
        assertThat(count(t, "processed_at is not null")).isEqualTo(1);
    }

    // ================================================================ resilience and order

    @ParameterizedTest
    @MethodSource("forms")
    public final void the_rows_of_a_process_killed_mid_handler_return_by_the_forms_rule(Form form) throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        publish(broker(), b, "emails", 1);
        String javaBin = ProcessHandle.current().info().command().orElseThrow();
        Process dying = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                DyingService.class.getName(), db.url(), t.getName(), form.name(), timeTypeName())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out = new BufferedReader(
                    new InputStreamReader(dying.getInputStream(), StandardCharsets.UTF_8));
            var holding = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        if (line.startsWith("HOLDING ")) {
                            return line;
                        }
                    }
                    return "exited";
                } catch (IOException e) {
                    return "failed: " + e;
                }
            });
            assertThat(holding.get(60, SECONDS)).startsWith("HOLDING ");
        } finally {
            dying.destroyForcibly();
            assertThat(dying.waitFor(30, SECONDS)).isTrue();
        }
        if (form == Form.LEASE) {
            // its lease (one second, from the dead process's clock) has run out by this broker's clock
            clock.advance(Duration.ofMinutes(1));
        }
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        QueueBroker survivor = broker();
        survivor.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return Outcome.ack();
        });
        survivor.start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 1);
        // a row lock claim counts nothing, and the rollback returns the row; a lease or a take spent an attempt
        assertThat(attempts).containsExactly(form == Form.ROW_LOCK ? 1 : 2);
    }

    @Test
    public final void a_failing_claim_is_logged_and_retried_and_the_loop_never_dies() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        AtomicInteger claimFailures = new AtomicInteger();
        QueueBroker broker = broker(new BrokerListener() {
            @Override
            public void claimFailed(InboxQueue<?> queue, Throwable failure) {
                claimFailures.incrementAndGet();
            }
        });
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        broker.start();
        db.execute("DROP TABLE " + t.getName());
        await().atMost(PATIENCE).until(() -> claimFailures.get() >= 2);
        db.execute(createTable(t.getName()));
        publish(broker, b, "emails", 1);
        await().atMost(PATIENCE).until(() -> handled.size() == 1);
    }

    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void a_fifo_group_has_one_row_in_work_at_a_time_in_order(Form form) {
        Jobs t = newTable();
        RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD);
        RoleBinding<Record> b = form == Form.LEASE ? builder.lease(t.LOCKED_UNTIL).build() : builder.build();
        List<Integer> order = new CopyOnWriteArrayList<>();
        AtomicInteger inWork = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<QueueBroker> two = List.of(broker(), broker());
        for (QueueBroker broker : two) {
            broker.subscribe(InboxQueue.of(b, "crm")).payload(Job.class).workers(3).handle((job, d) -> {
                most.accumulateAndGet(inWork.incrementAndGet(), Math::max);
                try {
                    order.add(job.n());
                    // the head fails once: it keeps its place
                    return job.n() == 2 && d.attempt().orElseThrow() == 1 ? Outcome.retry() : Outcome.ack();
                } finally {
                    inWork.decrementAndGet();
                }
            });
        }
        two.get(0).start();
        publish(two.get(0), b, "crm", 6);
        two.get(1).start();
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 6);
        assertThat(order).containsExactly(0, 1, 2, 2, 3, 4, 5);
        assertThat(most).hasValue(1);
    }

    @Test
    public final void the_time_zone_of_the_jvm_does_not_move_due_times() {
        TimeZone original = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu"));
        try {
            Jobs t = newTable();
            RoleBinding<Record> b = binding(t, preferredForm());
            QueueBroker broker = broker();
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
                attempts.add(d.attempt().orElseThrow());
                return attempts.size() == 1 ? Outcome.retryAfter(Duration.ofMinutes(30)) : Outcome.ack();
            });
            broker.start();
            publish(broker, b, "emails", 1);
            await().atMost(PATIENCE).until(() -> attempts.size() == 1);
            await().during(Duration.ofMillis(300)).atMost(PATIENCE).until(() -> attempts.size() == 1);
            clock.advance(Duration.ofMinutes(31));
            await().atMost(PATIENCE).until(() -> attempts.size() == 2);
        } finally {
            TimeZone.setDefault(original);
        }
    }
}
