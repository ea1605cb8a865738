package dev.tablequeue.broker;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Lease arithmetic: whole seconds, so a column without fractions holds the token exactly. */
final class Leases {
    private Leases() {}

    /** {@code lease} rounded up to whole seconds, at least one. */
    static Duration whole(Duration lease, String what) {
        if (lease == null || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + lease);
        }
        long seconds = lease.getSeconds() + (lease.getNano() > 0 ? 1 : 0);
        return Duration.ofSeconds(Math.max(1, seconds));
    }

    /**
     * The expiry a claim or extension at {@code now} writes: a whole second, never less than {@code lease}
     * after {@code now} (rounded up: cut down, a claim late in its second would hold up to a second less than
     * declared, and the keeper, running each half lease, would let a short lease lapse between its runs).
     */
    static Instant expiry(Instant now, Duration lease) {
        Instant whole = now.truncatedTo(ChronoUnit.SECONDS);
        return (whole.equals(now) ? whole : whole.plusSeconds(1)).plus(lease);
    }
}
