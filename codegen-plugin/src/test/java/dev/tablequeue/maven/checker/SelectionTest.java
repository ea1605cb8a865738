package dev.tablequeue.maven.checker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SelectionTest {
    private static final String SEND = "com.example.queues.Queues.SEND_EMAIL";

    @Test
    void a_constant_a_class_or_a_package_selects_the_constants_it_names_or_holds() {
        assertThat(new Selection(List.of(SEND), null).selects(SEND)).isTrue();
        assertThat(new Selection(List.of("com.example.queues.Queues"), null).selects(SEND)).isTrue();
        assertThat(new Selection(List.of("com.example"), null).selects(SEND)).isTrue();
        assertThat(new Selection(null, null).selects(SEND)).isTrue();
    }

    @Test
    void a_name_selects_nothing_it_only_begins_like() {
        assertThat(new Selection(List.of("com.example.queues.Queue"), null).selects(SEND)).isFalse();
        assertThat(new Selection(List.of("com.example.queues.Queues.SEND"), null).selects(SEND)).isFalse();
    }

    @Test
    void an_exclude_wins_over_an_include() {
        assertThat(new Selection(List.of("com.example"), List.of(SEND)).selects(SEND)).isFalse();
        assertThat(new Selection(List.of("com.example"), List.of(SEND)).selects("com.example.queues.Queues.OTHER"))
                .isTrue();
    }

    @Test
    void a_class_is_loaded_where_a_constant_of_it_or_a_package_around_it_is_named() {
        assertThat(new Selection(List.of(SEND), null).mayCheck("com.example.queues.Queues")).isTrue();
        assertThat(new Selection(List.of("com.example"), null).mayCheck("com.example.queues.Queues")).isTrue();
        assertThat(new Selection(List.of(SEND), null).mayCheck("com.example.queues.Other")).isFalse();
        assertThat(new Selection(null, List.of("com.example.queues.Queues")).mayCheck("com.example.queues.Queues"))
                .isFalse();
    }
}
