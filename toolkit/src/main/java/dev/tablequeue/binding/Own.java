package dev.tablequeue.binding;

import java.time.Instant;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;

/**
 * The shapes of the service's own statements, which a binding may run in place of the dialect's for one
 * {@link Event}. Each runs on the connection (and in the transaction) tablequeue would have run its own
 * statement on, so a settlement of the service's own settles the row as the built-in one does.
 */
public final class Own {
    private Own() {}

    /** Claims up to {@code limit} rows of {@code group} (null where the table has no group) and returns their ids. */
    @FunctionalInterface
    public interface Claim {
        List<?> claim(DSLContext ctx, String group, int limit);
    }

    /** Reads the rows of claimed ids; an id without a row is settled by the decode policy. */
    @FunctionalInterface
    public interface Fetch {
        Result<? extends Record> fetch(DSLContext ctx, List<?> ids);
    }

    /** Settles one row: an acknowledgement, a retry or a drop. */
    @FunctionalInterface
    public interface Settle {
        void settle(DSLContext ctx, Object id);
    }

    /** Returns a row to the queue once {@code until} has come. */
    @FunctionalInterface
    public interface RetryAfter {
        void retryAfter(DSLContext ctx, Object id, Instant until);
    }

    /** Moves a row whose attempts are spent to {@code destination}, a group or a table. */
    @FunctionalInterface
    public interface DeadLetter {
        void deadLetter(DSLContext ctx, Object id, String destination);
    }

    /** Moves a lease from {@code held} to {@code until} while the row still holds {@code held}; true if it did. */
    @FunctionalInterface
    public interface Extend {
        boolean extend(DSLContext ctx, Object id, Instant held, Instant until);
    }

    /** Takes (or releases) the advisory lock on {@code key} without waiting; true if it took (or held) it. */
    @FunctionalInterface
    public interface Lock {
        boolean lock(DSLContext ctx, String key);
    }
}
