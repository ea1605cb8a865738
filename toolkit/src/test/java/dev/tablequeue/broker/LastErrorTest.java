package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LastErrorTest {

    @Test
    void a_last_error_is_the_exceptions_class_and_message() {
        assertThat(LastError.of(new IllegalStateException("the mail server is down"), 1000))
                .isEqualTo("java.lang.IllegalStateException: the mail server is down");
        assertThat(LastError.of(new NullPointerException(), 1000)).isEqualTo("java.lang.NullPointerException");
    }

    @Test
    void a_long_one_is_cut_to_its_length_with_an_ellipsis() {
        String text = LastError.of(new IllegalStateException("x".repeat(5000)), 1000);
        assertThat(text).hasSize(1000).startsWith("java.lang.IllegalStateException: xxx").endsWith("x\u2026");
    }

    @Test
    void a_cut_never_splits_a_character_in_two() {
        String prefix = "java.lang.IllegalStateException: ";
        // an emoji (two chars) straddles the cut: it goes whole
        String text = LastError.of(new IllegalStateException("a".repeat(100 - prefix.length() - 2) + "\uD83D\uDE00b"),
                100);
        assertThat(text).endsWith("a\u2026").hasSize(99);
    }
}
