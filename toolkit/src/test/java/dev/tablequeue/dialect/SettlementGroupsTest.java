package dev.tablequeue.dialect;

import static dev.tablequeue.binding.ExampleTables.SUPPORT_TICKETS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.dialect.QueueSettlements.Outcome;
import dev.tablequeue.internal.Binds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/** Which outcomes of a batch one statement writes together, their rows bound as data: grouped without a database. */
class SettlementGroupsTest {
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant HELD = NOW.plusSeconds(30);
    private static final Instant EXTENDED = NOW.plusSeconds(60);

    /** A lease table with processed_at and a last error: an ack marks, a drop marks and writes the error. */
    private static final RoleBinding<Record> TICKETS = RoleBinding.of(SUPPORT_TICKETS, SUPPORT_TICKETS.ID)
            .attempt(SUPPORT_TICKETS.ATTEMPT).processedAt(SUPPORT_TICKETS.PROCESSED_AT)
            .lease(SUPPORT_TICKETS.LOCKED_UNTIL).lastError(SUPPORT_TICKETS.LAST_ERROR)
            .payload(SUPPORT_TICKETS.PAYLOAD).build();

    private final PostgresDialect dialect = new PostgresDialect();
    private final StatementSettlements settlements =
            (StatementSettlements) dialect.settlements(TICKETS, false, null);

    private static Outcome outcome(Kind kind, long id, Instant held, String lastError) {
        Binds binds = new Binds().id(id).now(NOW).leaseHeld(held);
        if (lastError != null) {
            binds.lastError(lastError);
        }
        return new Outcome(kind, binds);
    }

    private static List<Outcome> acks(long from, int count, Instant held) {
        List<Outcome> outcomes = new ArrayList<>();
        for (long id = from; id < from + count; id++) {
            outcomes.add(outcome(Kind.ACK, id, held, null));
        }
        return outcomes;
    }

    private List<SettlementGroups.Group> group(List<Outcome> outcomes) {
        return group(outcomes, 0);
    }

    private List<SettlementGroups.Group> group(List<Outcome> outcomes, int stage) {
        List<Integer> all = IntStream.range(0, outcomes.size()).boxed().toList();
        return SettlementGroups.group(outcomes, all, stage, settlements::statements, settlements::many, 2);
    }

    private Statement one(Kind kind) {
        return settlements.statements(kind).get(0);
    }

    @SuppressWarnings("unchecked")
    private static List<Binds> rowsOf(SettlementGroups.Group g, List<Outcome> outcomes) {
        return (List<Binds>) g.binds(outcomes).valueSet(Param.rows(List.of()));
    }

    /** What the group's statement binds for its ROWS param of {@code perRow}, as PostgreSQL reads it. */
    private Object rowsValue(SettlementGroups.Group g, List<Outcome> outcomes, Param.Kind perRow) {
        Param rows = g.many().params().stream().filter(p -> p.kind() == Param.Kind.ROWS)
                .filter(p -> p.perRow().get(0).kind() == perRow).findFirst().orElseThrow();
        return dialect.rowsTable().value(rows, rowsOf(g, outcomes), dialect);
    }

    @Test
    void a_batch_of_1000_acknowledgements_is_one_statement_over_its_rows() {
        List<Outcome> outcomes = acks(1, 1000, HELD);
        List<SettlementGroups.Group> groups = group(outcomes);
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).byRows()).isTrue();
        assertThat(groups.get(0).statement()).isSameAs(one(Kind.ACK));
        assertThat(groups.get(0).many()).isSameAs(settlements.many(one(Kind.ACK)));
        assertThat(groups.get(0).outcomes()).containsExactlyElementsOf(IntStream.range(0, 1000).boxed().toList());
        assertThat(rowsOf(groups.get(0), outcomes)).hasSize(1000);
    }

    @Test
    void outcomes_holding_different_leases_are_written_by_one_statement_each_row_with_its_own_token() {
        List<Outcome> all = new ArrayList<>(acks(1, 3, HELD));
        all.addAll(acks(10, 2, EXTENDED));
        List<SettlementGroups.Group> groups = group(all);
        assertThat(groups).singleElement().satisfies(g -> {
            assertThat(g.byRows()).isTrue();
            assertThat(g.outcomes()).containsExactly(0, 1, 2, 3, 4);
        });
        // ISO 8601 with the offset, as PostgreSQL reads it
        assertThat(java.util.Arrays.stream((String[]) rowsValue(groups.get(0), all, Param.Kind.LEASE_HELD))
                .map(text -> java.time.OffsetDateTime.parse(text).toInstant())).containsExactly(
                HELD, HELD, HELD, EXTENDED, EXTENDED);
    }

    @Test
    void a_mixed_batch_is_one_statement_per_kind_and_an_outcome_alone_of_its_kind_goes_by_itself() {
        List<Outcome> batch = List.of(
                outcome(Kind.ACK, 1, HELD, null),
                outcome(Kind.RETRY, 2, HELD, null),
                outcome(Kind.ACK, 3, HELD, null),
                outcome(Kind.RETRY, 4, EXTENDED, null),
                outcome(Kind.DROP, 5, HELD, "java.lang.IllegalStateException: five"),
                outcome(Kind.DROP, 6, HELD, "java.lang.IllegalStateException: six"),
                outcome(Kind.DROP, 7, HELD, null),
                outcome(Kind.RETRY, 8, HELD, null));
        List<SettlementGroups.Group> groups = group(batch);

        // each drop writes its own failure's text (or none), each retry its own token: values of each row's own
        assertThat(groups).allMatch(SettlementGroups.Group::byRows).extracting(SettlementGroups.Group::outcomes)
                .containsExactly(List.of(0, 2), List.of(1, 3, 7), List.of(4, 5, 6));
        assertThat((String[]) rowsValue(groups.get(2), batch, Param.Kind.LAST_ERROR)).containsExactly(
                "java.lang.IllegalStateException: five", "java.lang.IllegalStateException: six", null);

        List<Outcome> alone = List.of(batch.get(0), outcome(Kind.DROP, 10, HELD, null), batch.get(2));
        assertThat(group(alone)).extracting(g -> g.outcomes(), g -> g.byRows()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(List.of(0, 2), true),
                org.assertj.core.groups.Tuple.tuple(List.of(1), false));
    }

    @Test
    void fewer_outcomes_of_a_kind_than_the_dialects_fewest_are_written_one_execution_each_in_their_order() {
        List<Outcome> outcomes = acks(1, 9, HELD);
        outcomes.add(outcome(Kind.DROP, 20, HELD, null));
        outcomes.addAll(acks(30, 3, EXTENDED));
        List<Integer> all = IntStream.range(0, outcomes.size()).boxed().toList();

        List<SettlementGroups.Group> nine = SettlementGroups.group(outcomes.subList(0, 9), all.subList(0, 9), 0,
                settlements::statements, settlements::many, 10);
        assertThat(nine).singleElement().satisfies(g -> {
            assertThat(g.byRows()).isFalse();
            assertThat(g.statement()).isSameAs(one(Kind.ACK));
            assertThat(g.outcomes()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
        });

        // twelve acks reach ten (one statement over their rows); the drop alone goes by itself
        List<SettlementGroups.Group> groups = SettlementGroups.group(outcomes, all, 0, settlements::statements,
                settlements::many, 10);
        assertThat(groups).extracting(g -> g.outcomes(), g -> g.byRows()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12), true),
                org.assertj.core.groups.Tuple.tuple(List.of(9), false));
    }

    @Test
    void a_settlement_of_fewer_outcomes_than_the_fewest_goes_one_by_one_a_group_per_statement_in_first_outcome_order() {
        List<Outcome> outcomes = new java.util.ArrayList<>();
        outcomes.add(outcome(Kind.DROP, 1, HELD, null));
        outcomes.addAll(acks(2, 1, HELD));
        outcomes.add(outcome(Kind.DROP, 3, HELD, null));
        outcomes.addAll(acks(4, 1, EXTENDED));
        outcomes.addAll(acks(4, 1, HELD)); // the same row twice
        List<Integer> live = List.of(0, 1, 3, 4); // the outcome at 2 is not written at this stage

        List<SettlementGroups.Group> groups = SettlementGroups.group(outcomes, live, 0, settlements::statements,
                settlements::many, 10);
        assertThat(groups).extracting(g -> g.statement(), g -> g.outcomes(), g -> g.byRows()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(one(Kind.DROP), List.of(0), false),
                org.assertj.core.groups.Tuple.tuple(one(Kind.ACK), List.of(1, 3, 4), false));
        // a stage no outcome's kind has: nothing to write
        assertThat(SettlementGroups.group(outcomes, live, 5, settlements::statements, settlements::many, 10))
                .isEmpty();
    }

    @Test
    void the_same_row_twice_goes_once_in_the_statement_over_rows_and_once_on_its_own() {
        List<Outcome> outcomes = acks(1, 3, HELD);
        outcomes.add(outcome(Kind.ACK, 2, HELD, null));
        List<SettlementGroups.Group> groups = group(outcomes);
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0).outcomes()).containsExactly(0, 1, 2);
        assertThat(groups.get(1).byRows()).isFalse();
        assertThat(groups.get(1).outcomes()).containsExactly(3);
    }

    @Test
    void only_the_outcomes_given_as_live_are_grouped() {
        List<Outcome> outcomes = acks(1, 4, HELD);
        assertThat(SettlementGroups.group(outcomes, List.of(1, 3), 0, settlements::statements, settlements::many,
                2))
                .singleElement().satisfies(g -> assertThat(g.outcomes()).containsExactly(1, 3));
    }

    @Test
    void where_the_dialect_writes_no_statement_over_rows_every_row_is_written_on_its_own() {
        List<Outcome> outcomes = acks(1, 4, HELD);
        List<SettlementGroups.Group> groups = SettlementGroups.group(outcomes, List.of(0, 1, 2, 3), 0,
                settlements::statements, s -> null, 2);
        assertThat(groups).singleElement().satisfies(g -> {
            assertThat(g.byRows()).isFalse();
            assertThat(g.outcomes()).hasSize(4);
        });
    }

    @Test
    void a_stage_groups_only_the_outcomes_that_have_a_statement_there() {
        assertThat(group(acks(1, 4, HELD), 1)).isEmpty();
    }

    @Test
    void postgres_writes_an_acknowledgement_over_unnested_arrays_with_one_text_for_any_count() {
        Statement ack = settlements.many(one(Kind.ACK));
        assertThat(ack.sql()).contains("from unnest(cast(? as varchar[]), cast(? as varchar[]), cast(? as varchar[]))")
                .doesNotContainIgnoringCase(" in (");
        assertThat(ack.params()).extracting(Param::kind).containsOnly(Param.Kind.ROWS);
        assertThat(ack.params()).extracting(p -> p.perRow().get(0).kind())
                .containsExactlyInAnyOrder(Param.Kind.ID, Param.Kind.NOW, Param.Kind.LEASE_HELD);
        assertThat(settlements.many(one(Kind.DROP))).isNotNull();
        assertThat(settlements.many(one(Kind.RETRY))).isNotNull();
        // every form over many rows is among the statements a subscription prepares
        assertThat(settlements.statements()).contains(ack, settlements.many(one(Kind.DROP)),
                settlements.many(one(Kind.RETRY)));
    }
}
