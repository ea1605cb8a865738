package dev.tablequeue.maven.checker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.maven.Protocol;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

class ClaimIndexTest {
    private static final List<String> ORDER = List.of("priority", "retry_after", "id");
    private static final RoleBinding<Record> GROUPED = RoleBinding.of(DSL.table(DSL.name("t")),
                    DSL.field(DSL.name("id"), Long.class))
            .group(DSL.field(DSL.name("grp"), String.class))
            .processedAt(DSL.field(DSL.name("processed_at"), OffsetDateTime.class))
            .payload(DSL.field(DSL.name("payload"), byte[].class))
            .build();

    /** The warnings the claim of {@link #GROUPED} gets on a table with {@code indexes}. */
    private static List<String> warnings(TableShape.Index... indexes) {
        List<String> lines = new ArrayList<>();
        TableShape table = new TableShape("t", Map.of(), List.of("id"), List.of(indexes));
        ClaimIndex.check(GROUPED, table, new Findings.Where("Q.GROUPED", "db", "t"), new Findings(lines::add));
        return lines.stream().filter(l -> l.startsWith(Protocol.line(Protocol.WARN, ""))).toList();
    }

    private static TableShape.Index index(String predicate, String... columns) {
        return new TableShape.Index("t_claim", false, List.of(columns), Optional.ofNullable(predicate));
    }

    @Test
    void a_claim_index_with_processed_at_after_the_group_gets_no_warning() {
        assertThat(warnings(index(null, "grp", "processed_at", "id"))).isEmpty();
    }

    @Test
    void a_partial_claim_index_on_open_rows_gets_no_warning() {
        assertThat(warnings(index("(processed_at IS NULL)", "grp", "id"))).isEmpty();
    }

    @Test
    void a_claim_index_that_holds_acknowledged_rows_is_warned_of() {
        assertThat(warnings(index(null, "grp", "id"))).singleElement().asString()
                .contains("index t_claim [grp, id] serves the claim but holds every acknowledged row")
                .contains("put processed_at after the group");
    }

    @Test
    void a_claim_no_index_serves_is_warned_of_with_the_index_to_add() {
        assertThat(warnings(index(null, "payload"))).singleElement().asString()
                .endsWith("no index serves the claim (its group filter and claim order), so each claim reads the"
                        + " table: add an index on [grp, processed_at, id]");
    }

    @Test
    void an_index_serves_the_claim_when_it_starts_with_the_equalities_and_goes_on_in_claim_order() {
        assertThat(ClaimIndex.serves(List.of("grp", "processed_at", "priority", "retry_after", "id"),
                List.of("grp", "processed_at"), ORDER)).isTrue();
        assertThat(ClaimIndex.serves(List.of("processed_at", "grp", "priority", "retry_after"),
                List.of("grp", "processed_at"), ORDER)).as("equalities in any order, the closing id left out").isTrue();
    }

    @Test
    void an_index_without_an_equality_or_out_of_claim_order_does_not_serve_it() {
        assertThat(ClaimIndex.serves(List.of("grp", "priority", "retry_after", "id"), List.of("grp", "processed_at"),
                ORDER)).isFalse();
        assertThat(ClaimIndex.serves(List.of("grp", "processed_at", "retry_after", "priority"),
                List.of("grp", "processed_at"), ORDER)).isFalse();
        assertThat(ClaimIndex.serves(List.of("priority", "retry_after", "id"), List.of("grp"), ORDER)).isFalse();
    }

    @Test
    void a_claim_in_id_order_alone_needs_the_id_after_the_equalities() {
        assertThat(ClaimIndex.serves(List.of("grp", "id"), List.of("grp"), List.of("id"))).isTrue();
        assertThat(ClaimIndex.serves(List.of("grp"), List.of("grp"), List.of("id"))).isFalse();
    }
}
