package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.BatchRolledBackException;
import dev.tablequeue.LeaseLostException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BatchOutcome;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Batches ({@code batch(n)}) in every form the database takes: one claim is one batch of up to n rows for one
 * handler, which answers one outcome for all or one per row; a row that does not decode leaves the batch; a
 * handler that throws settles each row by its policy; in the row lock form a settlement that fails rolls the
 * batch back.
 */
public abstract class BatchContract extends BrokerFixture {

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_batch_handler_takes_the_rows_of_one_claim_as_a_list(Form form) {
        Queue q = queue(form);
        insertJobs(q.t, 30);
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        q.emails().batch(8).handle((jobs, deliveries) -> {
            assertThat(deliveries).hasSameSizeAs(jobs);
            sizes.add(jobs.size());
            jobs.forEach(job -> seen.add(job.n()));
            return BatchOutcome.all(Outcome.ack());
        });
        q.start();
        q.awaitProcessed(30);
        assertThat(seen).hasSize(30).doesNotHaveDuplicates();
        assertThat(sizes).allSatisfy(size -> assertThat(size).isBetween(1, 8)).contains(8);
    }

    /**
     * A batch lists its rows in claim order (priority, then retry_after, then id), whatever order the claim's
     * statement returns them in (SQLite's {@code UPDATE .. RETURNING} follows no order) and whatever order the
     * takes of an advisory claim's connections end in. Claim order here is neither id order nor its reverse; the
     * scenario runs 20 times, since the order in which side-by-side takes end varies from run to run.
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_batch_lists_its_rows_in_claim_order(Form form) {
        for (int run = 0; run < 20; run++) {
            Queue q = queue(form);
            List<Long> ids = insertJobs(q.t, 5);
            Instant now = clock.instant();
            // (priority, due): claim order is ids 5, 2, 4, 3, 1
            schedule(q.t, ids.get(0), 1, now.minusSeconds(10));
            schedule(q.t, ids.get(1), 0, now.minusSeconds(5));
            schedule(q.t, ids.get(2), 1, now.minusSeconds(30));
            schedule(q.t, ids.get(3), 0, now.minusSeconds(5));
            schedule(q.t, ids.get(4), 0, now.minusSeconds(20));
            List<Long> claimOrder = List.of(ids.get(4), ids.get(1), ids.get(3), ids.get(2), ids.get(0));
            List<List<Long>> batches = new CopyOnWriteArrayList<>();
            q.emails().batch(8).handle((jobs, deliveries) -> {
                batches.add(deliveries.stream().map(d -> ((Number) d.id()).longValue()).toList());
                return BatchOutcome.all(Outcome.ack());
            });
            q.start();
            q.awaitProcessed(5);
            q.broker.close();
            assertThat(batches).as("the batches of run %d in the %s form", run, form).containsExactly(claimOrder);
        }
    }

    /** Gives row {@code id} of {@code t} its priority and the instant it is due. */
    @SuppressWarnings("unchecked")
    private void schedule(Jobs t, long id, int priority, Instant due) {
        Object at = timeType().getType() == LocalDateTime.class ? LocalDateTime.ofInstant(due, ZoneOffset.UTC)
                : OffsetDateTime.ofInstant(due, ZoneOffset.UTC);
        dsl().update(t).set(t.PRIORITY, priority).set((Field<Object>) (Field<?>) t.RETRY_AFTER, at)
                .where(t.ID.eq(id)).execute();
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void each_row_of_a_batch_takes_its_own_outcome(Form form) {
        Queue q = queue(form);
        insertJobs(q.t, 8);
        q.emails().maxAttempts(3).deadLetter("dead").batch(8).handle((jobs, deliveries) -> {
            List<Outcome> outcomes = new ArrayList<>();
            for (Job job : jobs) {
                outcomes.add(job.n() % 2 == 0 ? Outcome.ack() : Outcome.deadLetter());
            }
            return BatchOutcome.each(outcomes);
        });
        q.start();
        q.awaitProcessed(4);
        awaitCount(q.t, "grp = 'dead'", 4);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_that_does_not_decode_is_settled_by_its_policy_and_the_batch_keeps_the_others(Form form) {
        Queue q = queue(form);
        insertJobs(q.t, 3);
        insertRaw(q.t, "emails", "not json".getBytes());
        List<Integer> seen = new CopyOnWriteArrayList<>();
        q.emails().batch(8).handle((jobs, deliveries) -> {
            jobs.forEach(job -> seen.add(job.n()));
            return BatchOutcome.all(Outcome.ack());
        });
        q.start();
        // the row that does not decode is dropped (no dead letter declared): processed with the others
        q.awaitProcessed(4);
        assertThat(seen).containsExactlyInAnyOrder(0, 1, 2);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_batch_handler_that_throws_settles_each_row_by_its_failure_policy(Form form) {
        Queue q = queue(form);
        insertJobs(q.t, 5);
        Map<Integer, List<Integer>> attempts = new ConcurrentHashMap<>();
        AtomicBoolean thrown = new AtomicBoolean();
        q.emails().onHandlerFailure(FailurePolicy.retry()).batch(8).handle((jobs, deliveries) -> {
            for (int i = 0; i < jobs.size(); i++) {
                attempts.computeIfAbsent(jobs.get(i).n(), n -> new CopyOnWriteArrayList<>())
                        .add(deliveries.get(i).attempt().orElseThrow());
            }
            if (thrown.compareAndSet(false, true)) {
                throw new IllegalStateException("the first batch fails");
            }
            return BatchOutcome.all(Outcome.ack());
        });
        q.start();
        q.awaitProcessed(5);
        // the rows of the first batch were retried: their next delivery reads one more attempt
        assertThat(attempts.values()).allSatisfy(a -> assertThat(a.get(a.size() - 1)).isEqualTo(a.get(0) + a.size() - 1));
        assertThat(attempts.values().stream().mapToInt(List::size).sum()).isGreaterThan(5);
    }

    @Test
    public final void a_batch_answering_the_wrong_number_of_outcomes_settles_its_rows_as_failed() {
        Queue q = queue(preferredForm());
        insertJobs(q.t, 3);
        AtomicInteger calls = new AtomicInteger();
        q.emails().onHandlerFailure(FailurePolicy.drop()).batch(8).handle((jobs, deliveries) -> {
            calls.incrementAndGet();
            return BatchOutcome.each(List.of(Outcome.retry()));
        });
        q.start();
        q.awaitProcessed(3);
        assertThat(calls.get()).isPositive();
    }

    /**
     * Row lock: the batch shares its claim's transaction; the one settlement that fails rolls it back, every
     * row returns as it was (the others' settlements fail with {@link BatchRolledBackException}), and the rows
     * are delivered again. SQLite has no row lock form, and refuses it.
     */
    @Test
    public final void a_settlement_that_fails_in_a_row_lock_batch_of_64_rolls_the_batch_back() {
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        AtomicBoolean failing = new AtomicBoolean(true);
        List<Long> ids = new ArrayList<>();
        Queue q = queue(t -> RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD)
                .own(Event.ACK, (ctx, id) -> {
                    if (id.equals(ids.get(17)) && failing.getAndSet(false)) {
                        throw new IllegalStateException("the acknowledgement of this row fails once");
                    }
                    ctx.update(t).set(t.NOTE, "acknowledged").where(t.ID.eq((Long) id)).execute();
                }).build(), settlementFailuresInto(failures));
        ids.addAll(insertJobs(q.t, 64));
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        q.emails().batch(64).handle((jobs, deliveries) -> {
            sizes.add(jobs.size());
            return BatchOutcome.all(Outcome.ack());
        });
        if (!startsOrIsRefused(q.broker, Form.ROW_LOCK)) {
            return;
        }
        awaitCount(q.t, "note = 'acknowledged'", 64);
        assertThat(sizes.get(0)).isEqualTo(64);
        assertThat(failures).hasSize(64);
        assertThat(failures.get(ids.get(17))).isNotInstanceOf(BatchRolledBackException.class)
                .hasMessageContaining("fails once");
        assertThat(failures.values().stream().filter(BatchRolledBackException.class::isInstance)).hasSize(63);
        // the rolled-back claim counted nothing: each row is delivered again, at its first attempt
        assertThat(q.count("attempt = 1")).isEqualTo(64);
    }

    /**
     * The acknowledgements of a batch are one statement over the batch's ids, not one execution per row: a
     * claim of 64 rows, all acknowledged, runs the ack once (a JDBC batch would run it 64 times).
     */
    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void a_batch_of_64_acknowledgements_runs_the_ack_statement_once(Form form) {
        Jobs t = newTable();
        CountingConnections counting = new CountingConnections(pool, CountingConnections.acknowledgementOf(t.getName()));
        QueueBroker broker = countedBroker(counting, new BrokerListener() {});
        insertJobs(t, 64);
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(binding(t, form), "emails")).payload(Job.class).batch(64)
                .handle((jobs, deliveries) -> {
                    sizes.add(jobs.size());
                    jobs.forEach(job -> seen.add(job.n()));
                    return BatchOutcome.all(Outcome.ack());
                });
        broker.start();
        awaitCount(t, "processed_at is not null", 64);
        broker.close();
        assertThat(sizes).containsExactly(64);
        assertThat(seen).hasSize(64).doesNotHaveDuplicates();
        assertThat(counting.executed).as("the acknowledgements run").hasSize(1);
        // the rows bound as data, not an IN list of ids
        assertThat(CountingConnections.plain(counting.executed.get(0))).containsAnyOf("unnest(", "json_table(",
                "json_each(").doesNotContain(" in (");
    }

    /**
     * A lease batch written as one statement over its ids tells lost leases row by row: the two rows whose
     * lease another claim took while the handler ran fail with {@link LeaseLostException} and keep what that
     * claim wrote; the other six are acknowledged, each reported settled once.
     */
    @Test
    public final void a_lease_batch_with_two_leases_lost_reports_exactly_those_two_and_writes_the_others() {
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        List<Object> settled = new CopyOnWriteArrayList<>();
        BrokerListener listener = new BrokerListener() {
            @Override
            public void settled(Delivery delivery, Outcome outcome) {
                settled.add(delivery.id());
            }

            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failures.put(delivery.id(), failure);
            }
        };
        Queue q = queue(t -> binding(t, Form.LEASE), listener);
        List<Long> ids = insertJobs(q.t, 8);
        List<Long> stolen = List.of(ids.get(2), ids.get(5));
        AtomicBoolean steal = new AtomicBoolean(true);
        q.emails().batch(8).handle((jobs, deliveries) -> {
            if (steal.getAndSet(false)) {
                // another claim has taken these two rows over: their leases are no longer the deliveries'
                dsl().execute("update " + q.t.getName() + " set grp = 'elsewhere', locked_until = null where id in ("
                        + stolen.get(0) + ", " + stolen.get(1) + ")");
            }
            return BatchOutcome.all(Outcome.ack());
        });
        q.start();
        await().atMost(PATIENCE).until(() -> failures.size() + settled.size() == 8);
        q.broker.close();
        assertThat(failures).containsOnlyKeys(stolen.toArray());
        assertThat(failures.values()).allSatisfy(f -> assertThat(f).isInstanceOf(LeaseLostException.class));
        assertThat(settled).containsExactlyInAnyOrderElementsOf(
                ids.stream().filter(id -> !stolen.contains(id)).map(Object.class::cast).toList());
        assertThat(q.count("processed_at is not null and grp = 'emails'")).isEqualTo(6);
        assertThat(q.count("processed_at is null and grp = 'elsewhere'")).isEqualTo(2);
    }

    /**
     * A batch of four outcome kinds, twelve rows each (PostgreSQL writes fewer than ten of a kind as a batch of
     * the one-row statement), is written by four statements, one per kind, and settles each row as its own
     * outcome says: acknowledged, hidden until its retry is due (and then delivered again), dropped, moved to
     * the dead letter.
     */
    @ParameterizedTest
    @MethodSource("rowLockAndLease")
    public final void a_mixed_batch_writes_one_statement_per_kind_and_settles_each_row_as_its_outcome_says(Form form) {
        Jobs t = newTable();
        CountingConnections counting = new CountingConnections(pool, CountingConnections.settlementOf(t.getName()));
        QueueBroker broker = countedBroker(counting, new BrokerListener() {});
        insertJobs(t, 48);
        Map<Integer, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(binding(t, form), "emails")).payload(Job.class).maxAttempts(5)
                .deadLetter("dead").batch(48).handle((jobs, ds) -> {
                    sizes.add(jobs.size());
                    List<Outcome> outcomes = new ArrayList<>();
                    for (Job job : jobs) {
                        boolean again = deliveries.computeIfAbsent(job.n(), n -> new AtomicInteger())
                                .incrementAndGet() > 1;
                        outcomes.add(again ? Outcome.ack() : switch (job.n() % 4) {
                            case 0 -> Outcome.ack();
                            case 1 -> Outcome.retryAfter(Duration.ofMinutes(10));
                            case 2 -> Outcome.drop();
                            default -> Outcome.deadLetter();
                        });
                    }
                    return BatchOutcome.each(outcomes);
                });
        broker.start();
        awaitCount(t, "processed_at is not null", 24);
        awaitCount(t, "grp = 'dead'", 12);
        assertThat(sizes).containsExactly(48);
        assertThat(counting.executed).as("the first batch's settlements: one per kind").hasSize(4);
        assertThat(count(t, "processed_at is null and grp = 'emails'")).isEqualTo(12);

        clock.advance(Duration.ofMinutes(11));
        awaitCount(t, "processed_at is not null", 36);
        broker.close();
        for (int n = 0; n < 48; n++) {
            assertThat(deliveries.get(n)).as("deliveries of job " + n).hasValue(n % 4 == 1 ? 2 : 1);
        }
        assertThat(count(t, "grp = 'dead' and processed_at is null")).isEqualTo(12);
        assertThat(count(t, "grp = 'emails' and processed_at is not null")).isEqualTo(36);
    }

    /** A broker over {@code counting}, with the suite's settings, closed after the test. */
    private QueueBroker countedBroker(CountingConnections counting, BrokerListener listener) {
        QueueBroker broker = QueueBroker.builder(counting).poolSize(12).clock(clock).pollInterval(POLL)
                .drainTimeout(Duration.ofSeconds(10)).listener(listener).build();
        brokers.add(broker);
        return broker;
    }

    @Test
    public final void a_transactional_batch_is_refused() {
        Jobs t = newTable();
        assertRefused(binding(t, preferredForm()), s -> {
            var mount = s.payload(Job.class).transactional();
            mount.batch(4);
            return mount;
        }, "transactional() serves single deliveries");
    }
}
