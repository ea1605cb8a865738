package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.BatchRolledBackException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BatchOutcome;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
