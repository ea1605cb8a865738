package dev.tablequeue.broker;

import java.time.Instant;
import java.util.Optional;

/** The due instants of a {@link Schedule}, whole seconds in a strictly increasing order. */
sealed interface ScheduleTimes permits CronTimes, IntervalTimes {

    /** The first due instant strictly after {@code instant}. */
    Optional<Instant> after(Instant instant);

    /** The last due instant at or before {@code instant}. */
    Optional<Instant> atOrBefore(Instant instant);
}
