package dev.tablequeue.broker;

import static dev.tablequeue.binding.ExampleTables.EMAIL_JOBS;
import static dev.tablequeue.binding.ExampleTables.JOBS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.PostgresDialect;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueSettlements;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;
import org.junit.jupiter.api.Test;

/** Which statements, with which binds, each outcome writes: planned without a database. */
class SettlementPlannerTest {
    private static final QueueDialect DIALECT = new PostgresDialect();
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant LEASE_HELD = NOW.plusSeconds(30);
    private static final OptionalInt FIRST = OptionalInt.of(1);
    private static final OptionalInt THIRD = OptionalInt.of(3);

    private static final RoleBinding<Record> EMAILS = RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID)
            .group(EMAIL_JOBS.NAME).retryAfter(EMAIL_JOBS.RETRY_AFTER).attempt(EMAIL_JOBS.ATTEMPT)
            .processedAt(EMAIL_JOBS.PROCESSED_AT).payload(EMAIL_JOBS.PAYLOAD).build();

    /** No retry_after and no processed_at: a delay cannot hide a row, and a drop deletes it. */
    private static final RoleBinding<Record> PLAIN = RoleBinding.of(JOBS, JOBS.JOB_ID).attempt(JOBS.ATTEMPT)
            .payload(JOBS.PAYLOAD).build();

    private static SubscriptionStatements statements(RoleBinding<?> b, boolean toGroup, Table<?> table) {
        return SubscriptionStatements.build(DIALECT, b, ClaimShape.ROLES, toGroup, table);
    }

    /** The one statement that writes {@code kind}. */
    private static Statement one(SubscriptionStatements s, QueueSettlements.Kind kind) {
        return s.settlements().statements(kind).get(0);
    }

    /** A planner of {@code b} capped at three attempts, dead letters to group "escalated". */
    private static SettlementPlanner toGroup(RoleBinding<?> b, SubscriptionStatements s) {
        return new SettlementPlanner(b, s, 3, "escalated", null, "emails", "email_jobs/emails");
    }

    @Test
    void an_acknowledgement_runs_the_ack_with_the_row_and_its_lease() {
        SubscriptionStatements s = statements(EMAILS, true, null);
        SettlementPlanner.Plan plan = toGroup(EMAILS, s).plan(Outcome.ack(), 7L, FIRST, LEASE_HELD, null, NOW);
        assertThat(plan.kind()).isEqualTo(SettlementPlanner.Kind.ACK);
        assertThat(plan.own()).isNull();
        assertThat(plan.run()).containsExactly(one(s, QueueSettlements.Kind.ACK));
        assertThat(plan.writes()).isEqualTo(QueueSettlements.Kind.ACK);
        assertThat(plan.needsTransaction()).isFalse();
        assertThat(value(plan, one(s, QueueSettlements.Kind.ACK), Param.Kind.ID)).isEqualTo(7L);
        // the lease token is bound where a lease statement asks for it
        assertThat(plan.binds().valueOf(Param.of(Param.Kind.LEASE_HELD, EMAIL_JOBS.RETRY_AFTER), DIALECT))
                .isEqualTo(time(LEASE_HELD));
    }

    @Test
    void a_retry_within_the_cap_returns_the_row_and_at_the_cap_moves_it_to_the_dead_letter_group() {
        SubscriptionStatements s = statements(EMAILS, true, null);
        SettlementPlanner planner = toGroup(EMAILS, s);
        SettlementPlanner.Plan retry = planner.plan(Outcome.retry(), 7L, FIRST, null, null, NOW);
        assertThat(retry.kind()).isEqualTo(SettlementPlanner.Kind.RETRY);
        assertThat(retry.run()).isEqualTo(s.settlements().statements(QueueSettlements.Kind.RETRY));

        SettlementPlanner.Plan spent = planner.plan(Outcome.retry(), 7L, THIRD, null, null, NOW);
        assertThat(spent.kind()).isEqualTo(SettlementPlanner.Kind.DEAD_LETTER);
        assertThat(spent.run()).containsExactly(one(s, QueueSettlements.Kind.DEAD_LETTER_TO_GROUP));
        assertThat(spent.writes()).isEqualTo(QueueSettlements.Kind.DEAD_LETTER_TO_GROUP);
        assertThat(value(spent, one(s, QueueSettlements.Kind.DEAD_LETTER_TO_GROUP), Param.Kind.DESTINATION)).isEqualTo("escalated");
        assertThat(planner.fate(THIRD, Outcome.retry()))
                .isEqualTo("moves to the dead letter \"escalated\": its attempts are spent");
        assertThat(planner.fate(FIRST, Outcome.retry())).isEqualTo("is retried");
    }

    @Test
    void a_retry_after_binds_its_delay_and_the_time_it_is_due() {
        SubscriptionStatements s = statements(EMAILS, true, null);
        Duration delay = Duration.ofSeconds(5);
        SettlementPlanner.Plan plan = toGroup(EMAILS, s).plan(Outcome.retryAfter(delay), 7L, FIRST, null, null, NOW);
        assertThat(plan.kind()).isEqualTo(SettlementPlanner.Kind.RETRY_AFTER);
        assertThat(plan.delay()).isEqualTo(delay);
        Statement retryAfter = one(s, QueueSettlements.Kind.RETRY_AFTER);
        assertThat(plan.run()).containsExactly(retryAfter);
        List<Param> due = params(retryAfter, Param.Kind.RETRY_AT);
        List<Param> delays = params(retryAfter, Param.Kind.DELAY);
        assertThat(due.size() + delays.size()).as("the statement binds when the row is due").isPositive();
        due.forEach(p -> assertThat(plan.binds().valueOf(p, DIALECT))
                .isEqualTo(DIALECT.timeValue(p.column(), NOW.plus(delay))));
        delays.forEach(p -> assertThat(plan.binds().valueOf(p, DIALECT)).isEqualTo(DIALECT.delayValue(delay)));
    }

    @Test
    void a_retry_after_on_a_table_that_cannot_hide_its_row_is_a_retry() {
        SubscriptionStatements s = statements(PLAIN, false, null);
        SettlementPlanner planner = new SettlementPlanner(PLAIN, s, 0, null, null, null, "jobs/jobs");
        SettlementPlanner.Plan plan = planner.plan(Outcome.retryAfter(Duration.ofMinutes(1)), 7L, FIRST, null, null, NOW);
        assertThat(planner.hidesRows()).isFalse();
        assertThat(plan.kind()).isEqualTo(SettlementPlanner.Kind.RETRY);
        assertThat(plan.delay()).isNull();
    }

    @Test
    void a_dead_letter_without_a_destination_drops_the_row_as_a_drop_does() {
        SubscriptionStatements s = statements(PLAIN, false, null);
        SettlementPlanner planner = new SettlementPlanner(PLAIN, s, 0, null, null, null, "jobs/jobs");
        SettlementPlanner.Plan dead = planner.plan(Outcome.deadLetter(), 7L, FIRST, null, null, NOW);
        SettlementPlanner.Plan drop = planner.plan(Outcome.drop(), 7L, FIRST, null, null, NOW);
        assertThat(dead.kind()).isEqualTo(SettlementPlanner.Kind.DROP);
        assertThat(dead.run()).containsExactly(one(s, QueueSettlements.Kind.DROP)).isEqualTo(drop.run());
        assertThat(planner.fate(FIRST, Outcome.deadLetter())).isEqualTo("is dropped (deleted): no dead letter is declared");
        assertThat(toGroup(EMAILS, statements(EMAILS, true, null)).fate(FIRST, Outcome.drop()))
                .isEqualTo("is dropped (marked processed)");
    }

    @Test
    void a_dead_letter_into_a_table_copies_then_deletes_in_one_transaction() {
        Table<?> dead = DSL.table(DSL.name("jobs_dead"));
        SubscriptionStatements s = statements(PLAIN, false, dead);
        SettlementPlanner planner = new SettlementPlanner(PLAIN, s, 2, null, dead, null, "jobs/jobs");
        SettlementPlanner.Plan plan = planner.plan(Outcome.deadLetter(), 7L, FIRST, null, null, NOW);
        assertThat(plan.kind()).isEqualTo(SettlementPlanner.Kind.DEAD_LETTER);
        assertThat(plan.run()).isEqualTo(s.settlements().statements(QueueSettlements.Kind.DEAD_LETTER_TO_TABLE))
                .hasSize(2);
        assertThat(plan.writes()).isEqualTo(QueueSettlements.Kind.DEAD_LETTER_TO_TABLE);
        assertThat(plan.needsTransaction()).isTrue();
        assertThat(planner.destination()).isEqualTo("jobs_dead");
    }

    @Test
    void an_event_the_service_owns_runs_its_own_statement_and_none_of_the_dialects() {
        RoleBinding<Record> owned = RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID).group(EMAIL_JOBS.NAME)
                .retryAfter(EMAIL_JOBS.RETRY_AFTER).attempt(EMAIL_JOBS.ATTEMPT).processedAt(EMAIL_JOBS.PROCESSED_AT)
                .payload(EMAIL_JOBS.PAYLOAD).own(Event.ACK, (ctx, id) -> { }).build();
        SettlementPlanner.Plan plan = toGroup(owned, statements(owned, true, null))
                .plan(Outcome.ack(), 7L, FIRST, null, null, NOW);
        assertThat(plan.own()).isEqualTo(Event.ACK);
        assertThat(plan.run()).isEmpty();
        assertThat(plan.writes()).isNull();
        assertThat(plan.needsTransaction()).isTrue();
    }

    @Test
    void a_failure_is_bound_as_the_last_error_and_a_clean_outcome_binds_none() {
        Logged logged = new Logged();
        RoleBinding<Record> b = RoleBinding.of(logged, logged.ID).retryAfter(logged.RETRY_AFTER)
                .payload(logged.PAYLOAD).lastError(logged.LAST_ERROR).build();
        SubscriptionStatements s = statements(b, false, null);
        SettlementPlanner planner = new SettlementPlanner(b, s, 0, null, null, null, "logged/logged");
        Statement retryAfter = one(s, QueueSettlements.Kind.RETRY_AFTER);
        SettlementPlanner.Plan failed = planner.plan(Outcome.retryAfter(Duration.ofSeconds(1)), 7L, OptionalInt.empty(),
                null, new IllegalStateException("the mail server is down"), NOW);
        assertThat(values(failed, retryAfter, Param.Kind.LAST_ERROR))
                .containsOnly("java.lang.IllegalStateException: the mail server is down");
        SettlementPlanner.Plan clean = planner.plan(Outcome.retryAfter(Duration.ofSeconds(1)), 7L, OptionalInt.empty(),
                null, null, NOW);
        assertThat(values(clean, retryAfter, Param.Kind.LAST_ERROR)).containsOnlyNulls();
    }

    // ---------------------------------------------------------------- helpers

    private static List<Param> params(Statement statement, Param.Kind kind) {
        return statement.params().stream().filter(p -> p.kind() == kind).toList();
    }

    private static List<Object> values(SettlementPlanner.Plan plan, Statement statement, Param.Kind kind) {
        List<Param> params = params(statement, kind);
        assertThat(params).as(statement.purpose() + " binds " + kind).isNotEmpty();
        List<Object> values = new ArrayList<>();
        params.forEach(p -> values.add(plan.binds().valueOf(p, DIALECT)));
        return values;
    }

    private static Object value(SettlementPlanner.Plan plan, Statement statement, Param.Kind kind) {
        List<Object> values = values(plan, statement, kind);
        assertThat(values).hasSize(1);
        return values.get(0);
    }

    private static Object time(Instant instant) {
        return DIALECT.timeValue(EMAIL_JOBS.RETRY_AFTER, instant);
    }

    /** A table with a last-error column. */
    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): the toolkit's tests also run on 3.19
    @SuppressWarnings("removal")
    private static final class Logged extends TableImpl<Record> {
        private static final long serialVersionUID = 1L;
        final TableField<Record, Long> ID = createField(DSL.name("id"),
                SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        final TableField<Record, OffsetDateTime> RETRY_AFTER = createField(DSL.name("retry_after"),
                SQLDataType.TIMESTAMPWITHTIMEZONE.nullable(false).defaultValue(DSL.currentOffsetDateTime()), this, "");
        final TableField<Record, byte[]> PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");
        final TableField<Record, String> LAST_ERROR = createField(DSL.name("last_error"), SQLDataType.CLOB, this, "");

        Logged() {
            super(DSL.name("logged"));
        }
    }
}
