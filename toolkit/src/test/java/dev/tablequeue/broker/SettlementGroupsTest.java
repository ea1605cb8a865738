package dev.tablequeue.broker;

import static dev.tablequeue.binding.ExampleTables.SUPPORT_TICKETS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.ForwardingQueueDialect;
import dev.tablequeue.dialect.MySqlDialect;
import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.PostgresDialect;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SqliteDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/** Which outcomes of a batch one statement writes together, and over how many ids: grouped without a database. */
class SettlementGroupsTest {
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant HELD = NOW.plusSeconds(30);
    private static final Instant EXTENDED = NOW.plusSeconds(60);

    /** A lease table with processed_at and a last error: an ack marks, a drop marks and writes the error. */
    private static final RoleBinding<Record> TICKETS = RoleBinding.of(SUPPORT_TICKETS, SUPPORT_TICKETS.ID)
            .attempt(SUPPORT_TICKETS.ATTEMPT).processedAt(SUPPORT_TICKETS.PROCESSED_AT)
            .lease(SUPPORT_TICKETS.LOCKED_UNTIL).lastError(SUPPORT_TICKETS.LAST_ERROR)
            .payload(SUPPORT_TICKETS.PAYLOAD).build();

    private final QueueDialect dialect = new PostgresDialect();
    private final SubscriptionStatements statements =
            SubscriptionStatements.build(dialect, TICKETS, ClaimShape.ROLES, false, null);
    private final SettlementPlanner planner =
            new SettlementPlanner(TICKETS, statements, 0, null, null, null, "support_tickets/tickets");
    private final ManyRowStatements manyRows = new ManyRowStatements(dialect, TICKETS, statements);

    private Settlement.Write write(long id, Outcome outcome, Instant held, Throwable failure) {
        return new Settlement.Write(new Settlement.Pending(null, outcome),
                planner.plan(outcome, id, OptionalInt.of(1), held, failure, NOW));
    }

    private List<Settlement.Write> acks(long from, int count, Instant held) {
        List<Settlement.Write> writes = new ArrayList<>();
        for (long id = from; id < from + count; id++) {
            writes.add(write(id, Outcome.ack(), held, null));
        }
        return writes;
    }

    private List<SettlementGroups.Group> group(List<Settlement.Write> writes) {
        return SettlementGroups.group(writes, 0, manyRows::has);
    }

    @Test
    void a_batch_of_64_acknowledgements_holding_one_lease_is_one_statement_over_64_ids() {
        List<Settlement.Write> writes = acks(1, 64, HELD);
        List<SettlementGroups.Group> groups = group(writes);
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).byIds()).isTrue();
        assertThat(groups.get(0).statement()).isSameAs(statements.ack());
        assertThat(groups.get(0).writes()).containsExactlyElementsOf(writes);
        assertThat(groups.get(0).paddedIds()).hasSize(64).doesNotHaveDuplicates();
    }

    @Test
    void an_in_list_is_padded_to_a_power_of_two_with_its_last_id() {
        SettlementGroups.Group g = group(acks(1, 5, HELD)).get(0);
        assertThat(g.paddedIds()).containsExactly(1L, 2L, 3L, 4L, 5L, 5L, 5L, 5L);
        assertThat(SettlementGroups.bucket(1)).isEqualTo(1);
        assertThat(SettlementGroups.bucket(2)).isEqualTo(2);
        assertThat(SettlementGroups.bucket(3)).isEqualTo(4);
        assertThat(SettlementGroups.bucket(64)).isEqualTo(64);
        assertThat(SettlementGroups.bucket(65)).isEqualTo(128);
        assertThatThrownBy(() -> SettlementGroups.bucket(SettlementGroups.MAX_IDS + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void outcomes_holding_different_leases_are_written_by_different_statements() {
        List<Settlement.Write> held = acks(1, 3, HELD);
        List<Settlement.Write> extended = acks(10, 2, EXTENDED);
        List<Settlement.Write> all = new ArrayList<>(held);
        all.addAll(extended);
        List<SettlementGroups.Group> groups = group(all);
        assertThat(groups).extracting(SettlementGroups.Group::writes).containsExactly(held, extended);
        assertThat(groups).allSatisfy(g -> assertThat(g.byIds()).isTrue());
    }

    @Test
    void a_mixed_batch_groups_each_kind_and_writes_one_of_a_kind_and_own_errors_row_by_row() {
        Settlement.Write ack1 = write(1, Outcome.ack(), HELD, null);
        Settlement.Write retry2 = write(2, Outcome.retry(), HELD, null);
        Settlement.Write ack3 = write(3, Outcome.ack(), HELD, null);
        Settlement.Write retry4 = write(4, Outcome.retry(), HELD, null);
        Settlement.Write drop5 = write(5, Outcome.drop(), HELD, new IllegalStateException("five"));
        Settlement.Write drop6 = write(6, Outcome.drop(), HELD, new IllegalStateException("six"));
        Settlement.Write dropped7 = write(7, Outcome.drop(), HELD, null);
        Settlement.Write dropped8 = write(8, Outcome.drop(), HELD, null);
        Settlement.Write retryAlone = write(9, Outcome.retry(), EXTENDED, null);
        List<SettlementGroups.Group> groups = group(
                List.of(ack1, retry2, ack3, retry4, drop5, drop6, dropped7, dropped8, retryAlone));

        assertThat(groups).filteredOn(SettlementGroups.Group::byIds)
                .extracting(SettlementGroups.Group::writes)
                .containsExactly(List.of(ack1, ack3), List.of(retry2, retry4), List.of(dropped7, dropped8));
        // each drop writes its own failure's text, so each binds values of its own; the retry holds another lease
        assertThat(groups).filteredOn(g -> !g.byIds())
                .extracting(SettlementGroups.Group::writes)
                .containsExactly(List.of(drop5, drop6), List.of(retryAlone));
        assertThat(groups).flatExtracting(SettlementGroups.Group::writes).hasSize(9).doesNotHaveDuplicates();
    }

    @Test
    void drops_that_failed_alike_are_written_together() {
        IllegalStateException failure = new IllegalStateException("the batch failed");
        List<SettlementGroups.Group> groups = group(List.of(write(1, Outcome.drop(), HELD, failure),
                write(2, Outcome.drop(), HELD, failure)));
        assertThat(groups).singleElement().satisfies(g -> assertThat(g.byIds()).isTrue());
    }

    @Test
    void the_same_row_twice_goes_once_in_the_statement_over_ids_and_once_on_its_own() {
        List<Settlement.Write> writes = acks(1, 3, HELD);
        Settlement.Write again = write(2, Outcome.ack(), HELD, null);
        writes.add(again);
        List<SettlementGroups.Group> groups = group(writes);
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0).writes()).containsExactlyElementsOf(writes.subList(0, 3));
        assertThat(groups.get(1).byIds()).isFalse();
        assertThat(groups.get(1).writes()).containsExactly(again);
    }

    @Test
    void a_batch_over_the_most_ids_is_cut_into_chunks_and_a_last_row_alone_goes_by_itself() {
        List<Settlement.Write> writes = acks(1, SettlementGroups.MAX_IDS * 2 + 1, HELD);
        List<SettlementGroups.Group> groups = group(writes);
        assertThat(groups).extracting(g -> g.writes().size(), SettlementGroups.Group::byIds).containsExactly(
                org.assertj.core.groups.Tuple.tuple(SettlementGroups.MAX_IDS, true),
                org.assertj.core.groups.Tuple.tuple(SettlementGroups.MAX_IDS, true),
                org.assertj.core.groups.Tuple.tuple(1, false));
        assertThat(group(acks(1, 200, HELD))).extracting(g -> g.paddedIds().size())
                .containsExactly(SettlementGroups.MAX_IDS, 128);
    }

    @Test
    void where_the_dialect_writes_no_statement_over_ids_every_row_is_written_on_its_own() {
        List<SettlementGroups.Group> groups = SettlementGroups.group(acks(1, 4, HELD), 0, s -> false);
        assertThat(groups).singleElement().satisfies(g -> {
            assertThat(g.byIds()).isFalse();
            assertThat(g.writes()).hasSize(4);
        });
    }

    @Test
    void a_stage_groups_only_the_outcomes_that_have_a_statement_there() {
        assertThat(SettlementGroups.group(acks(1, 4, HELD), 1, manyRows::has)).isEmpty();
    }

    @Test
    void every_built_in_dialect_writes_an_acknowledgement_over_an_in_list_with_the_lease_bound_once() {
        for (QueueDialect d : List.of(new PostgresDialect(), new SqliteDialect(),
                MySqlDialect.forServer("MariaDB", "11.4.2-MariaDB"))) {
            SubscriptionStatements s = SubscriptionStatements.build(d, TICKETS, ClaimShape.ROLES, false, null);
            ManyRowStatements many = new ManyRowStatements(d, TICKETS, s);
            Statement ack = many.of(s.ack(), 4).orElseThrow();
            assertThat(ack.sql()).as(d.name()).containsIgnoringCase("in (?, ?, ?, ?)");
            assertThat(ack.params()).filteredOn(p -> p.kind() == Param.Kind.ID)
                    .extracting(Param::index).containsExactly(0, 1, 2, 3);
            assertThat(ack.params()).filteredOn(p -> p.kind() == Param.Kind.LEASE_HELD).hasSize(1);
            assertThat(many.of(s.ack(), 4)).as("built once").containsSame(ack);
            assertThat(many.has(s.drop())).isTrue();
            assertThat(many.has(s.retry().orElseThrow())).isTrue();
            assertThat(many.has(s.claim())).isFalse();
        }
    }

    @Test
    void a_dialect_without_statements_over_ids_or_with_one_binding_other_ids_is_written_row_by_row() {
        QueueDialect forwarding = new ForwardingQueueDialect(dialect) {};
        QueueDialect none = new ForwardingQueueDialect(dialect) {
            @Override
            public Optional<Statement> ackByIds(RoleBinding<?> binding, int count) {
                return Optional.empty();
            }
        };
        QueueDialect wrong = new ForwardingQueueDialect(dialect) {
            @Override
            public Optional<Statement> ackByIds(RoleBinding<?> binding, int count) {
                return Optional.of(ack(binding));
            }
        };
        assertThat(new ManyRowStatements(forwarding, TICKETS, statements).has(statements.ack())).isTrue();
        assertThat(new ManyRowStatements(none, TICKETS, statements).has(statements.ack())).isFalse();
        assertThat(new ManyRowStatements(wrong, TICKETS, statements).has(statements.ack())).isFalse();
    }
}
