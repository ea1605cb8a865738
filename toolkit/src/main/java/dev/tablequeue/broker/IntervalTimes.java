package dev.tablequeue.broker;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** The multiples of an interval of whole seconds since the epoch: every instance computes the same instants. */
record IntervalTimes(Duration interval) implements ScheduleTimes {

    @Override
    public Optional<Instant> after(Instant instant) {
        return Optional.of(floor(instant).plus(interval));
    }

    @Override
    public Optional<Instant> atOrBefore(Instant instant) {
        return Optional.of(floor(instant));
    }

    private Instant floor(Instant instant) {
        long step = interval.getSeconds();
        return Instant.ofEpochSecond(Math.floorDiv(instant.getEpochSecond(), step) * step);
    }

    @Override
    public String toString() {
        return "every " + interval;
    }
}
