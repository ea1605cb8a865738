package dev.tablequeue.broker;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The unique key of a schedule's row: its name, {@code '@'}, and the instant in UTC to the second, of one fixed
 * width ({@code nightly-report@2026-12-05T02:00:00Z}), so the newest key of a schedule is its greatest.
 */
final class ScheduleKeys {
    private static final DateTimeFormatter INSTANT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    /** The characters of a key's instant. */
    static final int INSTANT_LENGTH = 20;

    private ScheduleKeys() {}

    /** What each key of {@code schedule} starts with. */
    static String prefix(String schedule) {
        return schedule + Schedule.KEY_SEPARATOR;
    }

    /** The length of each key of {@code schedule}. */
    static int length(String schedule) {
        return prefix(schedule).length() + INSTANT_LENGTH;
    }

    static String key(String schedule, Instant instant) {
        return prefix(schedule) + INSTANT.format(instant);
    }

    /** The instant of {@code key}, a key of {@code schedule}; empty where it is not one this class wrote. */
    static Optional<Instant> instant(String schedule, String key) {
        String prefix = prefix(schedule);
        if (key == null || !key.startsWith(prefix) || key.length() != prefix.length() + INSTANT_LENGTH) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.from(INSTANT.parse(key.substring(prefix.length()))));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
