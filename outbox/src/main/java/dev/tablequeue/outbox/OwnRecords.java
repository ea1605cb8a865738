package dev.tablequeue.outbox;

import java.util.List;
import java.util.Set;
import org.jooq.DSLContext;

/**
 * The shapes of the service's own statements, which an {@link OutboxBinding} runs in place of its own for
 * one {@link OutboxEvent}. Each runs on a connection of the outbox's pool and commits on its own.
 */
public final class OwnRecords {
    private OwnRecords() {}

    /** Reads the record {@code id}: whether it is processed; a record that is gone counts as processed. */
    @FunctionalInterface
    public interface Fetch {
        boolean processed(DSLContext ctx, Object id);
    }

    /** Settles the record {@code id}: an acknowledgement, a retry or a drop. */
    @FunctionalInterface
    public interface Settle {
        void settle(DSLContext ctx, Object id);
    }

    /**
     * Reads up to {@code limit} unprocessed records of {@code names} after {@code afterId} (null for the first
     * page), in id order.
     */
    @FunctionalInterface
    public interface Recover {
        List<PendingRecord> recover(DSLContext ctx, Set<String> names, Object afterId, int limit);
    }
}
