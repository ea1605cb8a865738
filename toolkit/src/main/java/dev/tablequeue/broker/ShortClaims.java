package dev.tablequeue.broker;

/**
 * Row lock: a subscription's claims, numbered as they begin, and the last that came back short.
 *
 * <p>A claim made while another claim's transaction is open may pass over rows that transaction holds without
 * returning them (InnoDB holds every row a locking read read past, not only those it returned; a FIFO claim holds
 * its group's head), find fewer rows than it asked for, and wait its poll interval. Those rows come free when
 * that transaction ends, and nothing else wakes the claim then. So the end of a claim's transaction asks
 * {@link #passedOverSince} whether a claim that began after it came back short (or is still running, and may), and
 * wakes the subscription where one did. That is one claim more per settlement at most, and none while the
 * handlers hold their rows: a claim that finds nothing waits for a settlement or its poll, never claims again at
 * once.
 */
final class ShortClaims {
    /** The number of the last claim begun. */
    private long begun;
    /** The number of the claim running, 0 where none is. */
    private long running;
    /** The number of the last claim that came back short. */
    private long lastShort;

    /** A claim begins; its number. */
    synchronized long begin() {
        running = ++begun;
        return begun;
    }

    /** Claim {@code claim} ended; {@code cameBackShort} where it found fewer rows than it asked for. */
    synchronized void end(long claim, boolean cameBackShort) {
        if (cameBackShort) {
            lastShort = Math.max(lastShort, claim);
        }
        if (running == claim) {
            running = 0;
        }
    }

    /**
     * Whether a claim that began after claim {@code claim} came back short or is still running: it may have passed
     * over rows that claim's transaction held.
     */
    synchronized boolean passedOverSince(long claim) {
        return lastShort > claim || running > claim;
    }
}
