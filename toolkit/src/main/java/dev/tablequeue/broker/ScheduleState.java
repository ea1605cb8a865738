package dev.tablequeue.broker;

import java.time.Instant;
import java.util.Optional;

/**
 * A schedule a broker runs, as the broker sees it now: its name and timing, the table and queue it publishes into,
 * the newest instant it knows to be in the table ({@code last}: read at the start, then each instant this broker
 * published or found published by another instance), and the next instant it will publish.
 */
public record ScheduleState(String name, String timing, String table, String queue, Instant last, Instant next) {

    /** The newest instant known to be published; empty where the table held no row of the schedule at the start. */
    public Optional<Instant> lastInstant() {
        return Optional.ofNullable(last);
    }

    /** The next instant to publish; empty where the schedule has no further instant. */
    public Optional<Instant> nextInstant() {
        return Optional.ofNullable(next);
    }
}
