package dev.tablequeue.broker;

import java.time.Instant;
import java.util.Optional;

/**
 * What retention removed from one table: in its last pass, and in all since the broker started.
 *
 * @param table the table's name
 * @param lastRun when the last pass ran, by the broker's clock; empty before the first
 * @param last what the last pass did
 * @param acknowledgedRemoved the acknowledged rows removed since the broker started
 * @param deadRemoved the dead letters removed since the broker started
 */
public record RetentionReport(String table, Optional<Instant> lastRun, Pass last, long acknowledgedRemoved,
        long deadRemoved) {

    /**
     * One pass over a table.
     *
     * @param acknowledged the acknowledged rows it removed
     * @param dead the dead letters it removed
     * @param batches the delete statements it ran, each its own transaction
     * @param heldElsewhere whether it found the table's retention lock held by another instance, and so did nothing
     */
    public record Pass(long acknowledged, long dead, int batches, boolean heldElsewhere) {
        static final Pass NONE = new Pass(0, 0, 0, false);
    }
}
