package dev.tablequeue.broker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failures of one advisory claim's connections, which try its candidates side by side: the claim throws
 * the first; each later one is logged on its own and kept with the first as suppressed, so the listener
 * hears of all of them. A failure that comes after the claim has gone on (a connection that hung) is logged.
 */
final class ClaimFailures {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimFailures.class);

    private final Object queue;
    private Exception first;
    private boolean ended;

    ClaimFailures(Object queue) {
        this.queue = queue;
    }

    void add(Exception e) {
        boolean isFirst;
        synchronized (this) {
            isFirst = first == null && !ended;
            if (isFirst) {
                first = e;
            } else if (first != null) {
                first.addSuppressed(e);
            }
        }
        if (!isFirst) {
            LOG.warn("another connection of a claim on {} failed as well: {}", queue, e.toString());
        }
    }

    /** Ends the claim's part: the first failure, or null where none came. */
    synchronized Exception end() {
        ended = true;
        return first;
    }
}
