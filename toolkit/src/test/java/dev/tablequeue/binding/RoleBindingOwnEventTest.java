package dev.tablequeue.binding;

import static dev.tablequeue.binding.ExampleTables.EMAIL_JOBS;
import static dev.tablequeue.binding.ExampleTables.JOBS;
import static dev.tablequeue.binding.ExampleTables.PAYOUTS;
import static dev.tablequeue.binding.ExampleTables.REPORT_JOBS;
import static dev.tablequeue.binding.Refusals.refusedFor;
import static dev.tablequeue.binding.Refusals.rules;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rules on the events a service runs with its own statements. */
class RoleBindingOwnEventTest {
    private static final Own.Claim CLAIM = (ctx, group, limit) -> List.of();
    private static final Own.Fetch FETCH = (ctx, ids) -> ctx.newResult();
    private static final Own.Settle SETTLE = (ctx, id) -> {};
    private static final Own.RetryAfter RETRY_AFTER = (ctx, id, until) -> {};
    private static final Own.DeadLetter DEAD_LETTER = (ctx, id, destination) -> {};
    private static final Own.Extend EXTEND = (ctx, id, held, until) -> true;
    private static final Own.Lock LOCK = (ctx, key) -> true;
    private static final Own.Lock UNLOCK = (ctx, key) -> true;

    /** The row lock form. */
    private static RoleBinding.Builder<Record> emails() {
        return RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID).group(EMAIL_JOBS.NAME).payload(EMAIL_JOBS.PAYLOAD);
    }

    /** The lease form. */
    private static RoleBinding.Builder<Record> reports() {
        return RoleBinding.of(REPORT_JOBS, REPORT_JOBS.ID).lease(REPORT_JOBS.LOCKED_UNTIL).payload(REPORT_JOBS.PAYLOAD);
    }

    /** The advisory lock form, keyed on the account as the billing system locks it. */
    private static RoleBinding.Builder<Record> payouts() {
        return RoleBinding.of(PAYOUTS, PAYOUTS.ID).advisory("{account_id}").payload(PAYOUTS.PAYLOAD);
    }

    @Test
    void an_own_claim_in_the_advisory_form_is_refused() {
        refusedFor(payouts().ownLock(LOCK).ownUnlock(UNLOCK).ownClaim(CLAIM),
                "billing.payouts", "an own claim is not taken in the advisory form");
    }

    @Test
    void an_own_extend_in_the_row_lock_form_is_refused() {
        refusedFor(emails().ownExtend(EXTEND), "email_jobs", "an own extend is only taken in the lease form");
    }

    @Test
    void an_own_extend_in_the_advisory_form_is_refused() {
        refusedFor(payouts().ownExtend(EXTEND), "billing.payouts", "an own extend is only taken in the lease form");
    }

    @Test
    void an_own_lock_without_an_own_unlock_is_refused() {
        refusedFor(payouts().ownLock(LOCK), "billing.payouts", "an own lock and unlock come together",
                "ownUnlock(..) is missing");
    }

    @Test
    void an_own_unlock_without_an_own_lock_is_refused() {
        refusedFor(payouts().ownUnlock(UNLOCK), "billing.payouts", "an own lock and unlock come together",
                "ownLock(..) is missing");
    }

    @Test
    void an_own_lock_and_unlock_in_the_row_lock_form_are_refused() {
        refusedFor(emails().ownLock(LOCK).ownUnlock(UNLOCK),
                "email_jobs", "an own lock and unlock are only taken in the advisory form");
    }

    @Test
    void an_own_lock_and_unlock_in_the_lease_form_are_refused() {
        refusedFor(reports().ownLock(LOCK).ownUnlock(UNLOCK),
                "report_jobs", "an own lock and unlock are only taken in the advisory form");
    }

    @Test
    void an_own_unlock_alone_outside_the_advisory_form_is_refused_for_the_form() {
        refusedFor(emails().ownUnlock(UNLOCK), "email_jobs", "only taken in the advisory form");
    }

    static Stream<Arguments> eventsDeclaredTwice() {
        return Stream.of(
                Arguments.of(Event.CLAIM, "email_jobs", emails().ownClaim(CLAIM).ownClaim(CLAIM)),
                Arguments.of(Event.FETCH, "email_jobs", emails().ownFetch(FETCH).ownFetch(FETCH)),
                Arguments.of(Event.ACK, "email_jobs", emails().own(Event.ACK, SETTLE).own(Event.ACK, SETTLE)),
                Arguments.of(Event.RETRY, "email_jobs", emails().own(Event.RETRY, SETTLE).own(Event.RETRY, SETTLE)),
                Arguments.of(Event.DROP, "email_jobs",
                        emails().own(Event.DROP, SETTLE).own(Event.DROP, SETTLE)),
                Arguments.of(Event.RETRY_AFTER, "email_jobs",
                        emails().ownRetryAfter(RETRY_AFTER).ownRetryAfter(RETRY_AFTER)),
                Arguments.of(Event.DEAD_LETTER, "email_jobs",
                        emails().ownDeadLetter(DEAD_LETTER).ownDeadLetter(DEAD_LETTER)),
                Arguments.of(Event.EXTEND, "report_jobs", reports().ownExtend(EXTEND).ownExtend(EXTEND)),
                Arguments.of(Event.LOCK, "billing.payouts", payouts().ownLock(LOCK).ownLock(LOCK).ownUnlock(UNLOCK)),
                Arguments.of(Event.UNLOCK, "billing.payouts",
                        payouts().ownLock(LOCK).ownUnlock(UNLOCK).ownUnlock(UNLOCK)));
    }

    @ParameterizedTest(name = "{0} declared twice")
    @MethodSource("eventsDeclaredTwice")
    void an_own_event_declared_twice_is_refused(Event event, String table, RoleBinding.Builder<Record> declaration) {
        refusedFor(declaration, table, "own event " + event + " is set twice");
    }

    static Stream<Arguments> eventsWithAMethodOfTheirOwn() {
        return Stream.of(
                Arguments.of(Event.CLAIM, "ownClaim(..)"),
                Arguments.of(Event.FETCH, "ownFetch(..)"),
                Arguments.of(Event.RETRY_AFTER, "ownRetryAfter(..)"),
                Arguments.of(Event.DEAD_LETTER, "ownDeadLetter(..)"),
                Arguments.of(Event.EXTEND, "ownExtend(..)"),
                Arguments.of(Event.LOCK, "ownLock(..)"),
                Arguments.of(Event.UNLOCK, "ownUnlock(..)"));
    }

    @ParameterizedTest(name = "own({0}, ..)")
    @MethodSource("eventsWithAMethodOfTheirOwn")
    void own_with_an_event_that_settles_no_single_row_is_refused_naming_its_own_method(Event event, String method) {
        assertThat(rules(emails().own(event, SETTLE), "email_jobs"))
                .anySatisfy(rule -> assertThat(rule)
                        .contains("own(" + event + ", ..)", "ACK, RETRY or DROP", method));
    }

    @Test
    void the_events_a_form_takes_are_accepted_and_kept_with_their_functions() {
        RoleBinding<Record> rowLock = emails()
                .ownClaim(CLAIM)
                .ownFetch(FETCH)
                .own(Event.ACK, SETTLE)
                .own(Event.RETRY, SETTLE)
                .own(Event.DROP, SETTLE)
                .ownRetryAfter(RETRY_AFTER)
                .ownDeadLetter(DEAD_LETTER)
                .build();
        RoleBinding<Record> lease = reports().ownClaim(CLAIM).ownExtend(EXTEND).build();
        RoleBinding<Record> advisory = payouts().ownLock(LOCK).ownUnlock(UNLOCK).build();

        assertThat(rowLock.own().events()).containsExactlyInAnyOrder(Event.CLAIM, Event.FETCH, Event.ACK,
                Event.RETRY, Event.DROP, Event.RETRY_AFTER, Event.DEAD_LETTER);
        assertThat(rowLock.own().claim()).isSameAs(CLAIM);
        assertThat(rowLock.own().fetch()).isSameAs(FETCH);
        assertThat(rowLock.own().settle(Event.DROP)).isSameAs(SETTLE);
        assertThat(rowLock.own().retryAfter()).isSameAs(RETRY_AFTER);
        assertThat(rowLock.own().deadLetter()).isSameAs(DEAD_LETTER);
        assertThat(lease.own().events()).containsExactlyInAnyOrder(Event.CLAIM, Event.EXTEND);
        assertThat(lease.own().extend()).isSameAs(EXTEND);
        assertThat(advisory.own().lock()).isSameAs(LOCK);
        assertThat(advisory.own().unlock()).isSameAs(UNLOCK);
        assertThat(advisory.owns(Event.ACK)).isFalse();
    }

    @Test
    void a_binding_without_own_events_runs_every_statement_of_the_dialect() {
        RoleBinding<Record> binding = RoleBinding.of(JOBS, JOBS.JOB_ID).payload(JOBS.PAYLOAD).build();

        assertThat(binding.own()).isEqualTo(OwnStatements.NONE);
        assertThat(binding.own().events()).isEmpty();
        assertThat(binding.owns(Event.CLAIM)).isFalse();
    }
}
