package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The due instants of a schedule: cron in a zone across daylight-saving changes, intervals, and the keys. */
class ScheduleTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    /** The instants of {@code s} strictly after {@code from} and at or before {@code to}, stepping with next(). */
    private static List<Instant> between(Schedule s, String from, String to) {
        List<Instant> out = new ArrayList<>();
        Instant at = Instant.parse(from);
        Instant end = Instant.parse(to);
        for (Optional<Instant> n = s.next(at); n.isPresent() && !n.get().isAfter(end); n = s.next(n.get())) {
            out.add(n.get());
        }
        return out;
    }

    private static List<Instant> instants(String... texts) {
        return java.util.Arrays.stream(texts).map(Instant::parse).toList();
    }

    @Test
    void a_daily_wall_time_in_the_spring_gap_runs_once_at_the_shifted_instant() {
        // 2027-03-28 in Berlin: 02:00 CET becomes 03:00 CEST, so 02:30 does not exist that day
        Schedule s = Schedule.cron("report", "0 30 2 * * *", BERLIN);

        assertThat(between(s, "2027-03-26T12:00:00Z", "2027-03-29T12:00:00Z")).isEqualTo(instants(
                "2027-03-27T01:30:00Z", // 02:30 CET
                "2027-03-28T01:30:00Z", // 02:30 shifted by the gap to 03:30 CEST
                "2027-03-29T00:30:00Z")); // 02:30 CEST
        assertThat(s.latest(Instant.parse("2027-03-28T01:20:00Z"))).contains(Instant.parse("2027-03-27T01:30:00Z"));
        assertThat(s.latest(Instant.parse("2027-03-28T01:30:00Z"))).contains(Instant.parse("2027-03-28T01:30:00Z"));
    }

    @Test
    void an_hourly_schedule_runs_the_hour_the_gap_removes_once_with_the_next() {
        Schedule s = Schedule.cron("hourly", "0 * * * *", BERLIN);

        assertThat(between(s, "2027-03-27T23:30:00Z", "2027-03-28T02:30:00Z")).isEqualTo(instants(
                "2027-03-28T00:00:00Z", // 01:00 CET
                "2027-03-28T01:00:00Z", // 02:00 (in the gap) and 03:00 CEST: one instant, once
                "2027-03-28T02:00:00Z")); // 04:00 CEST
    }

    @Test
    void a_daily_wall_time_in_the_autumn_overlap_runs_once_at_its_first_occurrence() {
        // 2026-10-25 in Berlin: 03:00 CEST becomes 02:00 CET, so 02:30 happens twice that day
        Schedule s = Schedule.cron("report", "0 30 2 * * *", BERLIN);

        assertThat(between(s, "2026-10-24T12:00:00Z", "2026-10-26T12:00:00Z")).isEqualTo(instants(
                "2026-10-25T00:30:00Z", // 02:30 CEST; 02:30 CET (01:30Z) is not run again
                "2026-10-26T01:30:00Z")); // 02:30 CET
        // in the second pass of the overlap the latest instant is the first pass's, and the next one is tomorrow's
        assertThat(s.latest(Instant.parse("2026-10-25T01:45:00Z"))).contains(Instant.parse("2026-10-25T00:30:00Z"));
        assertThat(s.next(Instant.parse("2026-10-25T01:10:00Z"))).contains(Instant.parse("2026-10-26T01:30:00Z"));
    }

    @Test
    void a_schedule_every_minute_runs_each_instant_of_the_overlap_once_and_in_order() {
        Schedule s = Schedule.cron("minutely", "* * * * *", BERLIN);

        List<Instant> run = between(s, "2026-10-24T23:58:00Z", "2026-10-25T02:01:00Z");

        // the wall times 02:00..02:59 of the second pass (01:00Z..01:59Z) are not run again: after 02:59 CEST
        // (00:59Z) comes 03:00 CET (02:00Z)
        assertThat(run).hasSize(1 + 60 + 2);
        assertThat(run).first().isEqualTo(Instant.parse("2026-10-24T23:59:00Z"));
        assertThat(run).filteredOn(i -> !i.isBefore(Instant.parse("2026-10-25T01:00:00Z"))).containsExactly(
                Instant.parse("2026-10-25T02:00:00Z"), Instant.parse("2026-10-25T02:01:00Z"));
        assertThat(run).isSorted().doesNotHaveDuplicates();
        assertThat(s.latest(Instant.parse("2026-10-25T01:30:30Z"))).contains(Instant.parse("2026-10-25T00:59:00Z"));
    }

    @Test
    void an_interval_falls_on_its_multiples_since_the_epoch() {
        Schedule s = Schedule.every("sweep", Duration.ofMinutes(5));

        assertThat(s.next(Instant.parse("2026-12-05T10:03:17Z"))).contains(Instant.parse("2026-12-05T10:05:00Z"));
        assertThat(s.next(Instant.parse("2026-12-05T10:05:00Z"))).contains(Instant.parse("2026-12-05T10:10:00Z"));
        assertThat(s.latest(Instant.parse("2026-12-05T10:05:00Z"))).contains(Instant.parse("2026-12-05T10:05:00Z"));
        assertThat(s.latest(Instant.parse("2026-12-05T10:04:59.9Z"))).contains(Instant.parse("2026-12-05T10:00:00Z"));
    }

    @Test
    void a_five_field_expression_is_read_as_unix_cron_and_six_fields_with_seconds_first() {
        Instant from = Instant.parse("2026-12-05T10:00:00Z");

        assertThat(Schedule.cron("a", "*/15 * * * *", ZoneId.of("UTC")).next(from))
                .contains(Instant.parse("2026-12-05T10:15:00Z"));
        assertThat(Schedule.cron("b", "*/15 * * * * *", ZoneId.of("UTC")).next(from))
                .contains(Instant.parse("2026-12-05T10:00:15Z"));
    }

    @Test
    void a_bad_declaration_is_refused_naming_the_schedule() {
        assertThatThrownBy(() -> Schedule.cron("nightly", "0 3 * *", BERLIN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"nightly\"")
                .hasMessageContaining("has 4");
        assertThatThrownBy(() -> Schedule.cron("nightly", "0 99 * * *", BERLIN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"nightly\"")
                .hasMessageContaining("not a cron expression");
        assertThatThrownBy(() -> Schedule.every("sweep", Duration.ofMillis(1500)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole seconds");
        assertThatThrownBy(() -> Schedule.every("a@b", Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'@'");
    }

    @Test
    void a_key_is_the_name_and_the_instant_to_the_second_of_one_width() {
        Instant at = Instant.parse("2026-12-05T10:00:00Z");

        assertThat(ScheduleKeys.key("report", at)).isEqualTo("report@2026-12-05T10:00:00Z");
        assertThat(ScheduleKeys.key("report", at)).hasSize(ScheduleKeys.length("report"));
        assertThat(ScheduleKeys.instant("report", "report@2026-12-05T10:00:00Z")).contains(at);
        assertThat(ScheduleKeys.instant("report", "report@2026-12-05T10:00Z")).isEmpty();
        assertThat(ScheduleKeys.instant("report", "other@2026-12-05T10:00:00Z")).isEmpty();
        assertThat(ScheduleKeys.key("r", Instant.parse("2026-01-01T00:00:09Z")))
                .isLessThan(ScheduleKeys.key("r", Instant.parse("2026-01-01T00:00:10Z")));
    }
}
