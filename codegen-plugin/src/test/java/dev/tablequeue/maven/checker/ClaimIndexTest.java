package dev.tablequeue.maven.checker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimIndexTest {
    private static final List<String> ORDER = List.of("priority", "retry_after", "id");

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
