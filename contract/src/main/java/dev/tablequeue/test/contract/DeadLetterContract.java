package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rows that fail: spent attempts moved to a dead-letter group or table, a handler that throws counted toward
 * the cap, and rows that do not decode, dropped or kept by the decode policy.
 *
 * <p>A test of a form runs for each form the database takes; a test that needs a form the database lacks is
 * skipped (an assumption), never passed unrun. Each database runs this suite through a small subclass that
 * names its {@link ContractDatabase}; the tests are final.
 */
public abstract class DeadLetterContract extends BrokerFixture {

    @ParameterizedTest
    @MethodSource("forms")
    public final void spent_attempts_move_the_row_to_the_dead_letter_group_keeping_its_attempt(Form form) {
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        List<String> deadLettered = new CopyOnWriteArrayList<>();
        Queue q = queue(form, new BrokerListener() {
            @Override
            public void deadLettered(Delivery delivery, String destination) {
                deadLettered.add(destination);
            }
        });
        q.emails().maxAttempts(2).deadLetter("escalated").handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return Outcome.retry();
        });
        q.start().publish(1);
        awaitCount(q.t, "grp = 'escalated'", 1);
        assertThat(attempts).containsExactly(1, 2);
        assertThat(deadLettered).containsExactly("escalated");
        // the row keeps the attempt its last delivery left: counted by the claim in the lease and advisory forms
        long expected = form == Form.ROW_LOCK ? 2 : 3;
        assertThat(q.count("attempt = " + expected + " and processed_at is null")).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void spent_attempts_move_the_row_into_the_dead_letter_table_with_every_column(Form form) {
        Jobs dead = newTable();
        Queue q = queue(t -> inForm(RoleBinding.of(t, t.ID).group(t.GRP).partitionKey(t.PARTITION_KEY)
                .retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .data(t.NOTE), t, form));
        q.emails().maxAttempts(1).deadLetterTable(dead).handle((job, d) -> {
            throw new IllegalStateException("the mail server is down");
        });
        q.start();
        q.broker.publisher().publish(q.b, Message.of("emails", new Job(7, "mail")).set(q.t.NOTE, "keep me")
                .set(q.t.PARTITION_KEY, "customer-9"));
        await().atMost(PATIENCE).until(() -> count(dead, "1 = 1") == 1);
        assertThat(q.count("1 = 1")).isZero();
        Record row = dsl().selectFrom(dead).fetchOne();
        assertThat(row.get(dead.NOTE)).isEqualTo("keep me");
        assertThat(row.get(dead.PARTITION_KEY)).isEqualTo("customer-9");
        assertThat(row.get(dead.GRP)).isEqualTo("emails");
        assertThat(new String(row.get(dead.PAYLOAD))).contains("\"n\":7");
    }

    @Test
    public final void a_handler_that_throws_is_retried_and_counted_toward_the_cap() {
        Queue q = queue(preferredForm());
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        q.emails().maxAttempts(3).deadLetter("dead").handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            throw new IllegalStateException("fails every time");
        });
        q.start().publish(1);
        await().atMost(PATIENCE).until(() -> q.count("grp = 'dead'") == 1);
        assertThat(attempts).containsExactly(1, 2, 3);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_that_does_not_decode_is_dropped_and_the_loop_goes_on(Form form) {
        List<Object> undecoded = new CopyOnWriteArrayList<>();
        Queue q = queue(form, new BrokerListener() {
            @Override
            public void decodeFailed(Delivery delivery, Throwable failure) {
                undecoded.add(delivery.id());
            }
        });
        List<Integer> handled = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        q.start();
        long bad = insertRaw(q.t, "emails", "not json at all".getBytes());
        q.publish(2);
        q.awaitProcessed(3);
        assertThat(undecoded).containsExactly(bad);
        assertThat(handled).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    public final void a_decode_policy_that_delays_keeps_the_row_in_the_table() {
        Queue q = queue(preferredForm());
        q.emails().onDecodeFailure(FailurePolicy.retryAfter(Duration.ofMinutes(10))).handle((job, d) -> Outcome.ack());
        q.start();
        long bad = insertRaw(q.t, "emails", "{".getBytes());
        await().atMost(PATIENCE).until(() -> q.count("id = " + bad + " and attempt = 2") == 1);
        assertThat(q.count("processed_at is not null")).isZero();
    }
}
