package dev.tablequeue.broker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The acknowledgements one subscription wrote, counted per minute of the broker's clock over the last hour: the
 * throughput of a table that deletes its acknowledged rows (no processedAt column to count them by afterwards).
 * A ring of one slot per minute, each stamped with the minute it counts, so a slot left from an hour ago reads
 * as nothing. A settlement adds under the monitor: a few instructions, beside the statement it just wrote.
 */
final class Acknowledgements {
    /** The most minutes kept, and so read. */
    static final int MINUTES = 60;
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final long[] minute = new long[MINUTES];
    private final long[] count = new long[MINUTES];

    Acknowledgements() {
        Arrays.fill(minute, Long.MIN_VALUE);
    }

    /** One acknowledgement written at {@code at}. */
    synchronized void add(Instant at) {
        long m = Math.floorDiv(at.getEpochSecond(), 60);
        int slot = (int) Math.floorMod(m, (long) MINUTES);
        if (minute[slot] != m) {
            minute[slot] = m;
            count[slot] = 0;
        }
        count[slot]++;
    }

    /**
     * The acknowledgements of each of the last {@code minutes} whole minutes up to {@code now}, oldest first; the
     * last is the minute under way.
     */
    synchronized Throughput read(Instant now, int minutes) {
        if (minutes < 1 || minutes > MINUTES) {
            throw new IllegalArgumentException("the broker keeps its acknowledgements for the last " + MINUTES
                    + " minutes: read 1 to " + MINUTES + ", not " + minutes);
        }
        long last = Math.floorDiv(now.getEpochSecond(), 60);
        List<Long> counts = new ArrayList<>(minutes);
        for (long m = last - minutes + 1; m <= last; m++) {
            int slot = (int) Math.floorMod(m, (long) MINUTES);
            counts.add(minute[slot] == m ? count[slot] : 0L);
        }
        return new Throughput(Instant.ofEpochSecond((last - minutes + 1) * 60), MINUTE, counts);
    }
}
