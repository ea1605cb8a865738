package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a subscription writes for each outcome a handler returns (an acknowledgement, a retry, a delayed retry,
 * a drop, the service's own statements), in payload and row mode, on a table without a group, in a FIFO
 * group's order, and at due times whatever the JVM's time zone.
 *
 * <p>A test of a form runs for each form the database takes; a test that needs a form the database lacks is
 * skipped (an assumption), never passed unrun. Each database runs this suite through a small subclass that
 * names its {@link ContractDatabase}; the tests are final.
 */
public abstract class OutcomesContract extends BrokerFixture {

    @ParameterizedTest
    @MethodSource("forms")
    public final void every_row_is_delivered_once_and_acknowledged(Form form) {
        Queue q = queue(form);
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        q.emails().workers(3).handle((job, d) -> {
            seen.merge(job.n(), 1, Integer::sum);
            return Outcome.ack();
        });
        q.start();
        for (int i = 0; i < 20; i++) {
            q.broker.publisher().publish(q.b, Message.of("emails", new Job(i, "mail")));
        }
        q.awaitProcessed(20);
        assertThat(seen).hasSize(20).allSatisfy((n, times) -> assertThat(times).isEqualTo(1));
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void an_own_acknowledgement_runs_in_place_of_the_dialects(Form form) {
        Queue q = queue(t -> inForm(RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                // a sent email stays in its table, in the "sent" group, for an audit
                .own(dev.tablequeue.binding.Event.ACK, (ctx, id) -> ctx.update(t).set(t.GRP, "sent")
                        .where(t.ID.eq((Long) id)).execute()), t, form));
        List<String> threads = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            threads.add(Thread.currentThread().getName());
            return Outcome.ack();
        });
        q.start().publish(2);
        await().atMost(PATIENCE).until(() -> q.count("grp = 'sent'") == 2);
        assertThat(q.count("processed_at is not null")).isZero();
        // one worker's handler runs on its subscription's claim thread, whatever the acknowledgement runs
        assertThat(threads).hasSize(2).allSatisfy(name -> assertThat(name).endsWith("-emails-claim-1"));
    }

    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void an_own_claim_and_fetch_take_and_read_the_rows(Form form) {
        boolean lease = form == Form.LEASE;
        Queue q = queue(t -> inForm(RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .ownClaim((ctx, group, limit) -> {
                    var select = ctx.select(t.ID).from(t).where(t.GRP.eq(group)).and(t.PROCESSED_AT.isNull())
                            .and(lease ? t.LOCKED_UNTIL.isNull() : DSL.noCondition())
                            .orderBy(t.ID).limit(limit);
                    return lease ? select.fetch(t.ID) : select.forUpdate().skipLocked().fetch(t.ID);
                })
                .ownFetch((ctx, ids) -> ctx.select(t.ID, t.ATTEMPT,
                                DSL.inline("{\"n\":99,\"kind\":\"own fetch\"}".getBytes()).as("payload"))
                        .from(t).where(t.ID.in(ids)).fetch()), t, form));
        List<Job> jobs = new CopyOnWriteArrayList<>();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            jobs.add(job);
            attempts.add(d.attempt().orElseThrow());
            return Outcome.ack();
        });
        q.start().publish(2);
        q.awaitProcessed(2);
        assertThat(jobs).extracting(Job::kind).containsOnly("own fetch");
        assertThat(attempts).containsOnly(1);
        if (lease) {
            // the dialect stamped the lease once and counted the attempt once
            assertThat(q.count("attempt = 2 and locked_until is not null")).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void an_acknowledgement_deletes_a_row_where_the_table_keeps_no_processed_at(Form form) {
        Queue q = queue(t -> bindingWithout(t, form, "processed_at"));
        q.emails().handle((job, d) -> Outcome.ack());
        q.start().publish(5);
        await().atMost(PATIENCE).until(() -> q.count("1 = 1") == 0);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_retry_returns_the_row_and_its_next_delivery_reads_one_more_attempt(Form form) {
        Queue q = queue(form);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return attempts.size() < 3 ? Outcome.retry() : Outcome.ack();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        assertThat(attempts).containsExactly(1, 2, 3);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_delayed_retry_hides_the_row_until_its_time_comes(Form form) {
        Queue q = queue(form);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return attempts.size() == 1 ? Outcome.retryAfter(Duration.ofHours(1)) : Outcome.ack();
        });
        q.start().publish(1);
        await().atMost(PATIENCE).until(() -> attempts.size() == 1 && q.count("locked_until is null") == 1);
        // many polls pass while the row's time has not come
        await().during(Duration.ofMillis(500)).atMost(PATIENCE).until(() -> attempts.size() == 1);
        clock.advance(Duration.ofHours(2));
        q.awaitProcessed(1);
        assertThat(attempts).containsExactly(1, 2);
    }

    @Test
    public final void a_delayed_retry_on_a_table_without_retry_after_returns_the_row_at_once() {
        Form form = forms().contains(Form.LEASE) ? Form.LEASE : forms().iterator().next();
        Queue q = queue(t -> bindingWithout(t, form, "retry_after"));
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return attempts.size() == 1 ? Outcome.retryAfter(Duration.ofHours(1)) : Outcome.ack();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        assertThat(attempts).containsExactly(1, 2);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_drop_finishes_the_row(Form form) {
        Queue q = queue(form);
        AtomicInteger handled = new AtomicInteger();
        q.emails().handle((job, d) -> {
            handled.incrementAndGet();
            return Outcome.drop();
        });
        q.start().publish(3);
        q.awaitProcessed(3);
        assertThat(handled).hasValue(3);
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

    @Test
    public final void a_table_without_a_group_column_is_one_queue_read_whole() {
        Queue q = queue(t -> bindingWithout(t, preferredForm(), "grp"));
        List<Integer> handled = new CopyOnWriteArrayList<>();
        q.broker.subscribe(InboxQueue.of(q.b, "everything")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        q.start();
        q.broker.publisher().publish(q.b, Message.of("signups", new Job(1, "a")));
        q.broker.publisher().publish(q.b, Message.of("welcome", new Job(2, "b")));
        await().atMost(PATIENCE).until(() -> handled.size() == 2);
        assertThat(handled).containsExactlyInAnyOrder(1, 2);
        assertThat(q.count("grp is null")).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void a_fifo_group_has_one_row_in_work_at_a_time_in_order(Form form) {
        Jobs t = newTable();
        RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD);
        RoleBinding<Record> b = inForm(builder, t, form);
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
        awaitCount(t, "processed_at is not null", 6);
        assertThat(order).containsExactly(0, 1, 2, 2, 3, 4, 5);
        assertThat(most).hasValue(1);
    }

    @Test
    public final void the_time_zone_of_the_jvm_does_not_move_due_times() {
        TimeZone original = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu"));
        try {
            Queue q = queue(preferredForm());
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            q.emails().handle((job, d) -> {
                attempts.add(d.attempt().orElseThrow());
                return attempts.size() == 1 ? Outcome.retryAfter(Duration.ofMinutes(30)) : Outcome.ack();
            });
            q.start().publish(1);
            await().atMost(PATIENCE).until(() -> attempts.size() == 1);
            await().during(Duration.ofMillis(300)).atMost(PATIENCE).until(() -> attempts.size() == 1);
            clock.advance(Duration.ofMinutes(31));
            await().atMost(PATIENCE).until(() -> attempts.size() == 2);
        } finally {
            TimeZone.setDefault(original);
        }
    }
}
