package dev.tablequeue.broker;

import static dev.tablequeue.binding.ExampleTables.SUPPORT_TICKETS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.PostgresDialect;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
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
        return SettlementGroups.group(writes, 0, manyRows::of);
    }

    @Test
    void a_batch_of_1000_acknowledgements_is_one_statement_over_its_rows() {
        List<Settlement.Write> writes = acks(1, 1000, HELD);
        List<SettlementGroups.Group> groups = group(writes);
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).byRows()).isTrue();
        assertThat(groups.get(0).statement()).isSameAs(statements.ack());
        assertThat(groups.get(0).many()).isSameAs(manyRows.of(statements.ack()));
        assertThat(groups.get(0).writes()).containsExactlyElementsOf(writes);
        assertThat((List<?>) groups.get(0).binds().valueSet(Param.rows(List.of()))).hasSize(1000);
    }

    @Test
    void outcomes_holding_different_leases_are_written_by_one_statement_each_row_with_its_own_token() {
        List<Settlement.Write> held = acks(1, 3, HELD);
        List<Settlement.Write> extended = acks(10, 2, EXTENDED);
        List<Settlement.Write> all = new ArrayList<>(held);
        all.addAll(extended);
        List<SettlementGroups.Group> groups = group(all);
        assertThat(groups).singleElement().satisfies(g -> {
            assertThat(g.byRows()).isTrue();
            assertThat(g.writes()).containsExactlyElementsOf(all);
        });
        Statement many = groups.get(0).many();
        Param rows = many.params().stream().filter(p -> p.kind() == Param.Kind.ROWS)
                .filter(p -> p.perRow().get(0).kind() == Param.Kind.LEASE_HELD).findFirst().orElseThrow();
        Object tokens = dialect.rowsValue(rows, rowsOf(groups.get(0)));
        assertThat((String[]) tokens).containsExactly("2026-03-01T10:00:30Z", "2026-03-01T10:00:30Z",
                "2026-03-01T10:00:30Z", "2026-03-01T10:01:00Z", "2026-03-01T10:01:00Z");
    }

    @SuppressWarnings("unchecked")
    private static List<dev.tablequeue.internal.Binds> rowsOf(SettlementGroups.Group g) {
        return (List<dev.tablequeue.internal.Binds>) g.binds().valueSet(Param.rows(List.of()));
    }

    @Test
    void a_mixed_batch_is_one_statement_per_kind_and_an_outcome_alone_of_its_kind_goes_by_itself() {
        Settlement.Write ack1 = write(1, Outcome.ack(), HELD, null);
        Settlement.Write retry2 = write(2, Outcome.retry(), HELD, null);
        Settlement.Write ack3 = write(3, Outcome.ack(), HELD, null);
        Settlement.Write retry4 = write(4, Outcome.retry(), EXTENDED, null);
        Settlement.Write drop5 = write(5, Outcome.drop(), HELD, new IllegalStateException("five"));
        Settlement.Write drop6 = write(6, Outcome.drop(), HELD, new IllegalStateException("six"));
        Settlement.Write dropped7 = write(7, Outcome.drop(), HELD, null);
        // the table has no retry_after: a delayed retry is written as a retry
        Settlement.Write later8 = write(8, Outcome.retryAfter(java.time.Duration.ofMinutes(5)), HELD, null);
        List<SettlementGroups.Group> groups = group(
                List.of(ack1, retry2, ack3, retry4, drop5, drop6, dropped7, later8));

        // each drop writes its own failure's text (or none), each retry its own token: values of each row's own
        assertThat(groups).filteredOn(SettlementGroups.Group::byRows)
                .extracting(SettlementGroups.Group::writes)
                .containsExactly(List.of(ack1, ack3), List.of(retry2, retry4, later8),
                        List.of(drop5, drop6, dropped7));
        assertThat(groups).noneMatch(g -> !g.byRows());
        assertThat(groups).flatExtracting(SettlementGroups.Group::writes).hasSize(8).doesNotHaveDuplicates();
        Settlement.Write alone = write(10, Outcome.drop(), HELD, null);
        assertThat(group(List.of(ack1, alone, ack3))).extracting(g -> g.writes(), g -> g.byRows()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(List.of(ack1, ack3), true),
                org.assertj.core.groups.Tuple.tuple(List.of(alone), false));
        Param errors = groups.get(2).many().params().stream().filter(p -> p.kind() == Param.Kind.ROWS)
                .filter(p -> p.perRow().get(0).kind() == Param.Kind.LAST_ERROR).findFirst().orElseThrow();
        assertThat((String[]) dialect.rowsValue(errors, rowsOf(groups.get(2))))
                .containsExactly(drop5.plan().binds().valueSet(Param.of(Param.Kind.LAST_ERROR)).toString(),
                        drop6.plan().binds().valueSet(Param.of(Param.Kind.LAST_ERROR)).toString(), null);
    }

    @Test
    void the_same_row_twice_goes_once_in_the_statement_over_rows_and_once_on_its_own() {
        List<Settlement.Write> writes = acks(1, 3, HELD);
        Settlement.Write again = write(2, Outcome.ack(), HELD, null);
        writes.add(again);
        List<SettlementGroups.Group> groups = group(writes);
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0).writes()).containsExactlyElementsOf(writes.subList(0, 3));
        assertThat(groups.get(1).byRows()).isFalse();
        assertThat(groups.get(1).writes()).containsExactly(again);
    }

    @Test
    void where_the_dialect_writes_no_statement_over_rows_every_row_is_written_on_its_own() {
        List<SettlementGroups.Group> groups = SettlementGroups.group(acks(1, 4, HELD), 0, s -> null);
        assertThat(groups).singleElement().satisfies(g -> {
            assertThat(g.byRows()).isFalse();
            assertThat(g.writes()).hasSize(4);
        });
    }

    @Test
    void a_stage_groups_only_the_outcomes_that_have_a_statement_there() {
        assertThat(SettlementGroups.group(acks(1, 4, HELD), 1, manyRows::of)).isEmpty();
    }

    @Test
    void postgres_writes_an_acknowledgement_over_unnested_arrays_with_one_text_for_any_count() {
        Statement ack = manyRows.of(statements.ack());
        assertThat(ack.sql()).contains("from unnest(cast(? as varchar[]), cast(? as varchar[]), cast(? as varchar[]))")
                .doesNotContainIgnoringCase(" in (");
        assertThat(ack.params()).extracting(Param::kind).containsOnly(Param.Kind.ROWS);
        assertThat(ack.params()).extracting(p -> p.perRow().get(0).kind())
                .containsExactlyInAnyOrder(Param.Kind.ID, Param.Kind.NOW, Param.Kind.LEASE_HELD);
        assertThat(manyRows.of(statements.drop())).isNotNull();
        assertThat(manyRows.of(statements.retry().orElseThrow())).isNotNull();
        assertThat(manyRows.of(statements.all().get(0))).isNull();
    }

    @Test
    void a_dialect_without_statements_over_rows_is_written_row_by_row() {
        // the dialect as it is, and the same dialect with no many-row acknowledgement
        QueueDialect none = (QueueDialect) Proxy.newProxyInstance(QueueDialect.class.getClassLoader(),
                new Class<?>[] {QueueDialect.class}, (proxy, method, args) -> {
                    if (method.getName().equals("ackMany")) {
                        return Optional.empty();
                    }
                    try {
                        return method.invoke(dialect, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        assertThat(new ManyRowStatements(dialect, TICKETS, statements).of(statements.ack())).isNotNull();
        assertThat(new ManyRowStatements(none, TICKETS, statements).of(statements.ack())).isNull();
    }
}
