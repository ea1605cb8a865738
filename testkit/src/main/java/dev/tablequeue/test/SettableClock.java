package dev.tablequeue.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock a test moves by hand, so due times and leases pass without waiting: give it to
 * {@code QueueBroker.builder(..).clock(..)}, then {@link #advance} it. It runs with the system's clock,
 * offset by what the test advanced (so rows the database stamps with its own "now" stay due), unless it
 * was {@link #set} to a fixed instant.
 */
public final class SettableClock extends Clock {
    private record Reading(Instant fixed, Duration offset) {}

    private final AtomicReference<Reading> reading;
    private final ZoneId zone;

    /** A clock that follows the system's clock until advanced. */
    public SettableClock() {
        this(new AtomicReference<>(new Reading(null, Duration.ZERO)), ZoneOffset.UTC);
    }

    private SettableClock(AtomicReference<Reading> reading, ZoneId zone) {
        this.reading = reading;
        this.zone = zone;
    }

    /** Moves the clock forward by {@code by}. */
    public void advance(Duration by) {
        reading.updateAndGet(r -> r.fixed() != null
                ? new Reading(r.fixed().plus(by), r.offset())
                : new Reading(null, r.offset().plus(by)));
    }

    /** Stops the clock at {@code instant}; it then moves only when advanced. */
    public void set(Instant instant) {
        reading.set(new Reading(instant, Duration.ZERO));
    }

    @Override
    public Instant instant() {
        Reading r = reading.get();
        return r.fixed() != null ? r.fixed() : Instant.now().plus(r.offset());
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** A view of the same clock in {@code zone}: moving either moves both. */
    @Override
    public Clock withZone(ZoneId zone) {
        return new SettableClock(reading, zone);
    }
}
