package dev.tablequeue.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line, redrawn on a terminal and printed plain elsewhere. */
class ProgressTest {

    @Test
    void the_line_shows_the_bar_the_share_the_count_the_rate_and_the_retries_and_dead_letters() {
        assertThat(Progress.line(5400, 10_000, 2310, 771, 14))
                .isEqualTo("[################..............]  54%  5400/10000    2310 jobs/s  retried 771  dead 14");
        assertThat(Progress.line(0, 200, 0, 0, 0))
                .isEqualTo("[..............................]   0%   0/200       0 jobs/s  retried 0  dead 0");
    }

    @Test
    void on_a_terminal_each_update_redraws_the_line_in_place_over_a_longer_one() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, 100);

        progress.update(new Tally.Counts(10, 1000, 0, 0, null), Duration.ofSeconds(1));
        progress.finish(new Tally.Counts(100, 0, 0, 0, null), Duration.ofSeconds(2));

        String first = Progress.line(10, 100, 10, 1000, 0);
        String last = Progress.line(100, 100, 50, 0, 0);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("\r" + first + "\r" + last
                + " ".repeat(first.length() - last.length()) + System.lineSeparator());
    }

    @Test
    void elsewhere_updates_print_plain_lines_at_most_once_a_second() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AtomicLong nanos = new AtomicLong(5_000_000_000L);
        Progress progress = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, 100, nanos::get);

        progress.update(new Tally.Counts(10, 0, 0, 0, null), Duration.ofSeconds(1));
        nanos.addAndGet(Duration.ofMillis(999).toNanos());
        progress.update(new Tally.Counts(20, 0, 0, 0, null), Duration.ofSeconds(1));
        nanos.addAndGet(Duration.ofMillis(1).toNanos());
        progress.update(new Tally.Counts(30, 0, 0, 0, null), Duration.ofSeconds(1));
        progress.finish(new Tally.Counts(100, 0, 0, 0, null), Duration.ofSeconds(2));

        assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                Progress.line(10, 100, 10, 0, 0), Progress.line(30, 100, 30, 0, 0), Progress.line(100, 100, 50, 0, 0));
    }
}
