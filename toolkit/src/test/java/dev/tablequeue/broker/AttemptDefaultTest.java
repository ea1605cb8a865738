package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AttemptDefaultTest {

    @Test
    void a_default_of_one_reads_as_one_in_each_servers_spelling() {
        assertThat(AttemptDefault.startsAtOne("1")).isTrue();
        assertThat(AttemptDefault.startsAtOne(" (1) ")).isTrue();
        assertThat(AttemptDefault.startsAtOne("'1'::smallint")).isTrue();
        assertThat(AttemptDefault.startsAtOne("('1')")).isTrue();
    }

    @Test
    void any_other_default_or_none_does_not() {
        assertThat(AttemptDefault.startsAtOne("0")).isFalse();
        assertThat(AttemptDefault.startsAtOne("10")).isFalse();
        assertThat(AttemptDefault.startsAtOne("")).isFalse();
        assertThat(AttemptDefault.startsAtOne("NULL")).isFalse();
        assertThat(AttemptDefault.startsAtOne("nextval('seq')")).isFalse();
    }
}
