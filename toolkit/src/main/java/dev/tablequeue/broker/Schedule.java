package dev.tablequeue.broker;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * When a recurring job comes due: a name, and a cron expression in a time zone or a fixed interval. A broker
 * publishes one message into a queue table at each due instant ({@link QueueBroker#schedule}), once across all
 * the brokers on the database: the row's unique key is the schedule's name and the instant.
 *
 * <pre>{@code
 * broker.schedule(Schedule.cron("nightly-report", "0 0 3 * * *", ZoneId.of("Europe/Berlin")),
 *         InboxQueue.of(REPORTS, "reports"), instant -> new ReportDue(instant));
 * broker.schedule(Schedule.every("sweep", Duration.ofMinutes(5)).skipMissed(), InboxQueue.of(JOBS, "sweep"),
 *         instant -> new Sweep());
 * }</pre>
 *
 * <p>Instants are whole seconds. A cron expression has five fields (minute, hour, day of month, month, day of
 * week, as Unix cron reads them) or six (a field of seconds first, as Spring reads them), and is read in its
 * zone's wall time: a wall time the zone skips (a daylight-saving gap) runs at the instant java.time shifts it
 * to, once; a wall time the zone passes twice (an overlap) runs at its first occurrence only. An interval's
 * instants are its multiples since 1970-01-01T00:00:00Z, so every instance computes the same ones.
 *
 * <p>Immutable: {@link #skipMissed()} and {@link #runLatestMissed()} return a new schedule.
 */
public final class Schedule {
    /** What a broker does at its start about instants that came due while no instance of the service ran. */
    public enum Missed {
        /** Publishes the latest missed instant once (the default); earlier missed instants are not published. */
        RUN_LATEST_ONCE,
        /** Publishes none of them: the first instant published is the first one after the start. */
        SKIP
    }

    /** The character between a schedule's name and the instant in its rows' keys. */
    static final char KEY_SEPARATOR = '@';

    private final String name;
    private final ScheduleTimes times;
    private final Missed missed;

    private Schedule(String name, ScheduleTimes times, Missed missed) {
        this.name = name;
        this.times = times;
        this.missed = missed;
    }

    /**
     * A schedule named {@code name} due at each instant {@code expression} matches in {@code zone}'s wall time.
     *
     * @throws IllegalArgumentException for a name that is blank or holds {@code '@'}, or an expression that is
     *     not a cron expression of five or six fields (the message names the schedule)
     */
    public static Schedule cron(String name, String expression, ZoneId zone) {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(zone, "zone");
        return new Schedule(checked(name), CronTimes.parse(name, expression, zone), Missed.RUN_LATEST_ONCE);
    }

    /**
     * A schedule named {@code name} due every {@code interval}, at its multiples since the epoch.
     *
     * @throws IllegalArgumentException for a name that is blank or holds {@code '@'}, or an interval that is not a
     *     positive number of whole seconds
     */
    public static Schedule every(String name, Duration interval) {
        Objects.requireNonNull(interval, "interval");
        checked(name);
        if (interval.isNegative() || interval.isZero() || interval.getNano() != 0) {
            throw new IllegalArgumentException("schedule \"" + name + "\": the interval must be a positive number of"
                    + " whole seconds, was " + interval);
        }
        return new Schedule(name, new IntervalTimes(interval), Missed.RUN_LATEST_ONCE);
    }

    private static String checked(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.indexOf(KEY_SEPARATOR) >= 0) {
            throw new IllegalArgumentException("a schedule's name must not be blank nor hold '" + KEY_SEPARATOR
                    + "' (it starts its rows' keys, name@instant), was \"" + name + "\"");
        }
        return name;
    }

    /** This schedule, skipping the instants missed while no instance ran. */
    public Schedule skipMissed() {
        return new Schedule(name, times, Missed.SKIP);
    }

    /** This schedule, publishing the latest instant missed while no instance ran, once (the default). */
    public Schedule runLatestMissed() {
        return new Schedule(name, times, Missed.RUN_LATEST_ONCE);
    }

    /** The schedule's name, which starts the unique key of each row it publishes. */
    public String name() {
        return name;
    }

    /** What a starting broker does about missed instants. */
    public Missed missed() {
        return missed;
    }

    /** The first due instant strictly after {@code instant}; empty where the schedule has none. */
    public Optional<Instant> next(Instant instant) {
        return times.after(instant);
    }

    /** The last due instant at or before {@code instant}; empty where the schedule has none. */
    public Optional<Instant> latest(Instant instant) {
        return times.atOrBefore(instant);
    }

    /** The expression and zone, or the interval, as declared. */
    public String timing() {
        return times.toString();
    }

    @Override
    public String toString() {
        return "schedule \"" + name + "\" (" + times + ")";
    }
}
