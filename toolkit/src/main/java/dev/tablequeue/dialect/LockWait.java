package dev.tablequeue.dialect;

import java.sql.SQLException;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * How a database bounds the time a session's statements wait for a row lock: the statement that sets the
 * bound, the one that restores the session's own, and how a statement that ran out of it fails.
 *
 * @param bound sets the bound for the session's next statements
 * @param restore restores the session's setting, before the connection goes back to its pool
 * @param timedOut whether a statement's failure is the bound running out
 */
public record LockWait(String bound, String restore, Predicate<SQLException> timedOut) {
    public LockWait {
        Objects.requireNonNull(bound, "bound");
        Objects.requireNonNull(restore, "restore");
        Objects.requireNonNull(timedOut, "timedOut");
    }
}
