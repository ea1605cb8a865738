package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.SchemaException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.jooq.Record;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a handler that throws leads to: its log line with the stack trace, the default and the mount's backoff
 * before its retry, the hold where the table has no retry_after, the last error a failure (or a row that does not
 * decode) leaves in the row and its dead letter, and the attempt column whose count the cap reads.
 *
 * <p>Each test runs for each form the database takes. Each database runs this suite through a small subclass that
 * names its {@link ContractDatabase}; the tests are final.
 */
public abstract class HandlerFailureContract extends BrokerFixture {

    // ================================================================ handlers that throw

    /** A handler that throws is logged with its stack trace (skipped where the log is not read). */
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
                        && lines.get(at + 1).startsWith("\tat " + HandlerFailureContract.class.getName());
            });
        }
    }

    /** By default a handler that throws is retried after a growing delay with jitter. */
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

    /** The backoff a mount is given sets the delay of the retry after a handler that throws. */
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

    /** On a table without retry_after, the row of a handler that throws is held for the backoff first. */
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

    /** A retry after a failure writes the exception as the last error; the acknowledgement after keeps it. */
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

    /** A dead letter keeps in its last error why its row failed, or did not decode. */
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

    /** A row moved into the dead letter table carries its last error there. */
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

    /** A row dropped because it does not decode keeps the reason in its last error. */
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

    /** A last error is cut to a thousand characters, its end marked. */
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


    // ================================================================ the attempt column

    /** An attempt column that does not default to one stops the start, saying why. */
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

    // ================================================================ fixture

    /**
     * A clock of a test's own, stopped a minute ahead: the rows the database stamped are due, and nothing
     * else moves until the test advances it.
     */
    private static SettableClock stoppedAMinuteAhead() {
        SettableClock stopped = new SettableClock();
        stopped.set(Instant.now().plus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.MILLIS));
        return stopped;
    }

    /** A broker of the suite's on {@code clock} (closed after the test). */
    private QueueBroker broker(SettableClock clock) {
        QueueBroker broker = database().broker(pool).clock(clock).pollInterval(POLL).build();
        brokers.add(broker);
        return broker;
    }

    /** {@link Jobs#binding} with the last-error column. */
    private static RoleBinding<Record> withLastError(Jobs t, Form form) {
        return inForm(RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).lastError(t.LAST_ERROR), t, form);
    }

    /** The last_error column of row {@code id}. */
    private String lastError(Jobs t, long id) {
        return dsl().select(t.LAST_ERROR).from(t).where(t.ID.eq(id)).fetchOne(t.LAST_ERROR);
    }

    /** A new {@link Jobs} table whose DDL {@code change} rewrites. */
    private Jobs newTable(UnaryOperator<String> change) {
        String name = "jobs" + TABLES.incrementAndGet();
        db.execute(change.apply(createTable(name)));
        return new Jobs(name, timeType());
    }

    /** The retry_after of row {@code id}, whatever type the database reads it in. */
    private Instant retryAfter(Jobs t, long id) {
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
