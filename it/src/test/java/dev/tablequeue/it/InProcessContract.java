package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BatchOutcome;
import dev.tablequeue.broker.CommitWakeups;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * In-process mode ({@code QueueBroker.builder(..).inProcess()}): a publish runs the handlers of what is due on
 * the caller's thread and returns once their outcomes are written, so a test asserts right after it, without
 * a wait; what comes due later runs at {@code runDue()}.
 */
public abstract class InProcessContract extends BrokerFixture {

    private QueueBroker inProcess() {
        return broker(new dev.tablequeue.broker.BrokerListener() {}, settings -> settings.inProcess());
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_publish_returns_once_its_handler_ran_on_the_callers_thread_and_its_row_is_settled(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = inProcess();
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            ranOn.add(Thread.currentThread());
            return Outcome.ack();
        });
        broker.start();

        broker.publisher().publish(b, Message.of("emails", new Job(1, "mail")));

        assertThat(ranOn).containsExactly(Thread.currentThread());
        assertThat(count(t, "processed_at is not null")).isEqualTo(1);

        broker.publisher().publishAll(b, List.of(Message.of("emails", new Job(2, "mail")),
                Message.of("emails", new Job(3, "mail")), Message.of("emails", new Job(4, "mail"))));

        assertThat(ranOn).hasSize(4).containsOnly(Thread.currentThread());
        assertThat(count(t, "processed_at is not null")).isEqualTo(4);
    }

    /** A handler that publishes into its own table: the new row runs before the outer publish returns. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_row_a_handler_publishes_runs_before_the_publish_that_started_it_returns(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = inProcess();
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            if (job.n() < 3) {
                broker.publisher().publish(b, Message.of("emails", new Job(job.n() + 1, "follow-up")));
            }
            return Outcome.ack();
        });
        broker.start();

        broker.publisher().publish(b, Message.of("emails", new Job(1, "mail")));

        assertThat(handled).containsExactly(1, 2, 3);
        assertThat(count(t, "processed_at is not null")).isEqualTo(3);
    }

    /** A delayed retry is not run again by the publish; runDue() runs it once it is due. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_delayed_retry_runs_at_run_due_once_the_clock_reaches_it(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = inProcess();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElse(0));
            return attempts.size() == 1 ? Outcome.retryAfter(Duration.ofMinutes(5)) : Outcome.ack();
        });
        broker.start();

        broker.publisher().publish(b, Message.of("emails", new Job(1, "mail")));
        assertThat(attempts).containsExactly(1);
        assertThat(count(t, "processed_at is null")).isEqualTo(1);

        broker.runDue();
        assertThat(attempts).as("not due yet").containsExactly(1);

        clock.advance(Duration.ofMinutes(6));
        broker.runDue();
        assertThat(attempts).containsExactly(1, 2);
        assertThat(count(t, "processed_at is not null")).isEqualTo(1);
    }

    /** A handler that throws: the publish returns normally and the row waits for its backoff. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_handler_that_throws_leaves_the_publish_returning_and_its_row_backing_off(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = inProcess();
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            calls.incrementAndGet();
            throw new IllegalStateException("the mail server refused it");
        });
        broker.start();

        broker.publisher().publish(b, Message.of("emails", new Job(1, "mail")));

        assertThat(calls).as("once: the backoff hides the row until later").hasValue(1);
        assertThat(count(t, "processed_at is null")).isEqualTo(1);
        broker.runDue();
        assertThat(calls).hasValue(1);
    }

    /**
     * A publish in the caller's transaction: with CommitWakeups its handler runs at the commit, on the
     * committing thread; without, at runDue().
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_publish_in_the_callers_transaction_runs_at_its_commit_where_the_broker_sees_it(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = inProcess();
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        broker.start();
        DSLContext watched = DSL.using(new DefaultConfiguration().set(pool).set(database().sqlDialect())
                .setAppending(new CommitWakeups()));

        watched.transaction(tx -> {
            broker.publisher().publish(tx.dsl(), b, Message.of("emails", new Job(1, "in a transaction")));
            assertThat(handled).as("not before the commit").isEmpty();
        });
        assertThat(handled).containsExactly(1);

        dsl().transaction(tx -> broker.publisher().publish(tx.dsl(), b,
                Message.of("emails", new Job(2, "unwatched"))));
        assertThat(handled).containsExactly(1);
        broker.runDue();
        assertThat(handled).containsExactly(1, 2);
        assertThat(count(t, "processed_at is not null")).isEqualTo(2);
    }

    /** A batch subscription in process: the publishAll's rows reach the batch handler before it returns. */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_batch_subscription_takes_the_rows_of_a_publish_all_before_it_returns(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = inProcess();
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).batch(10).handle((jobs, ds) -> {
            jobs.forEach(job -> handled.add(job.n()));
            return BatchOutcome.all(Outcome.ack());
        });
        broker.start();
        List<Message> messages = new ArrayList<>();
        for (int n = 0; n < 5; n++) {
            messages.add(Message.of("emails", new Job(n, "mail")));
        }

        broker.publisher().publishAll(b, messages);

        assertThat(handled).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(count(t, "processed_at is not null")).isEqualTo(5);
    }

    @Test
    public final void run_due_on_a_broker_that_claims_on_its_own_threads_is_refused() {
        QueueBroker broker = broker();
        broker.start();
        assertThatThrownBy(broker::runDue).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("inProcess()");
    }
}
