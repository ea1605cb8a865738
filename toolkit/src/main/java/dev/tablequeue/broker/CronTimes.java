package dev.tablequeue.broker;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * The instants of a cron expression in a zone, parsed and stepped by cron-utils.
 *
 * <p>The approach: cron-utils steps the expression over wall times in UTC, a zone without daylight saving, so it
 * never meets a gap or an overlap; each wall time it finds is then placed in the schedule's zone by java.time's
 * rule ({@link ZonedDateTime#of}): a wall time in a gap moves forward by the gap's length, one in an overlap takes
 * the earlier offset. Placing wall times so can give an instant twice (02:30 in a one-hour gap becomes 03:30, as
 * 03:30 itself does) or out of order, so {@link #after} steps on until the instant is strictly later than the
 * one asked about: each instant runs once. The second occurrence of a wall time in an overlap is never produced,
 * so an overlap runs once.
 */
final class CronTimes implements ScheduleTimes {
    /** How many wall times a step may pass over before the schedule is taken to have no further instant. */
    private static final int MOST_STEPS = 1000;

    private final String expression;
    private final ZoneId zone;
    private final ExecutionTime execution;

    private CronTimes(String expression, ZoneId zone, ExecutionTime execution) {
        this.expression = expression;
        this.zone = zone;
        this.execution = execution;
    }

    /** @throws IllegalArgumentException where {@code expression} is not five or six cron fields */
    static CronTimes parse(String name, String expression, ZoneId zone) {
        int fields = expression.trim().split("\\s+").length;
        CronType type = switch (fields) {
            case 5 -> CronType.UNIX;
            case 6 -> CronType.SPRING53;
            default -> throw new IllegalArgumentException("schedule \"" + name + "\": a cron expression has five fields"
                    + " (minute first) or six (second first), \"" + expression + "\" has " + fields);
        };
        Cron cron;
        try {
            cron = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(type)).parse(expression).validate();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("schedule \"" + name + "\": \"" + expression
                    + "\" is not a cron expression: " + e.getMessage(), e);
        }
        return new CronTimes(expression, zone, ExecutionTime.forCron(cron));
    }

    @Override
    public Optional<Instant> after(Instant instant) {
        LocalDateTime wall = searchFrom(instant);
        for (int i = 0; i < MOST_STEPS; i++) {
            Optional<LocalDateTime> next = execution.nextExecution(utc(wall)).map(ZonedDateTime::toLocalDateTime);
            if (next.isEmpty()) {
                return Optional.empty();
            }
            Instant placed = placed(next.get());
            if (placed.isAfter(instant)) {
                return Optional.of(placed);
            }
            wall = next.get();
        }
        return Optional.empty();
    }

    @Override
    public Optional<Instant> atOrBefore(Instant instant) {
        // the wall time one second on, as cron-utils' last execution is strictly before the time given
        LocalDateTime wall = searchFrom(instant).plusSeconds(1);
        for (int i = 0; i < MOST_STEPS; i++) {
            Optional<LocalDateTime> last = execution.lastExecution(utc(wall)).map(ZonedDateTime::toLocalDateTime);
            if (last.isEmpty()) {
                return Optional.empty();
            }
            Instant placed = placed(last.get());
            if (!placed.isAfter(instant)) {
                return Optional.of(placed);
            }
            wall = last.get();
        }
        return Optional.empty();
    }

    /**
     * The wall time the search starts from: {@code instant}'s own, to the second; or, in the second pass of an
     * overlap (the wall times the zone passes again once its clocks went back), the last second of the first
     * pass, since every wall time of the second pass is placed at its first occurrence, an earlier instant.
     */
    private LocalDateTime searchFrom(Instant instant) {
        LocalDateTime wall = LocalDateTime.ofInstant(instant, zone).withNano(0);
        ZoneOffsetTransition last = zone.getRules().previousTransition(instant.plusNanos(1));
        if (last != null && last.isOverlap() && wall.isBefore(last.getDateTimeBefore())) {
            return last.getDateTimeBefore().minusSeconds(1);
        }
        return wall;
    }

    private Instant placed(LocalDateTime wall) {
        return ZonedDateTime.of(wall, zone).toInstant();
    }

    private static ZonedDateTime utc(LocalDateTime wall) {
        return wall.atZone(ZoneOffset.UTC);
    }

    @Override
    public String toString() {
        return "cron \"" + expression + "\" in " + zone;
    }
}
