package dev.tablequeue.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The advisory locks of one table's keys on one database, as its dialect takes them: a lock taken without waiting
 * and released by whoever took it. Where the database's sessions hold locks (PostgreSQL, MySQL, MariaDB), a lock is
 * the session's of the connection that took it, and ends with that session; where they hold none (SQLite), the
 * process keeps the keys of each database file ({@link ProcessKeys}), and a lock lasts until it is released. The
 * advisory claim locks the key of each row it takes; a retention pass locks its table's.
 */
public interface KeyLocks {

    /** The statements a lock and a release run, for a subscription to prepare when it starts; none in process. */
    List<Statement> statements();

    /** Takes {@code key}'s lock without waiting, for the session of {@code c} or for the process; whether it did. */
    boolean tryLock(Connection c, String key) throws SQLException;

    /** Releases {@code key}'s lock, taken on {@code c} (the process's: on any); whether it was held. */
    boolean unlock(Connection c, String key) throws SQLException;

    /**
     * The keys the process keeps, where it keeps them: a claim's candidates cannot leave them out, so the claim
     * passes over them itself. Empty where the database's sessions hold the locks.
     */
    Optional<ProcessKeys> inProcess();

    /** Locks the session of a connection holds, by the dialect's lock and release statements (one boolean-like column each). */
    static KeyLocks ofSession(QueueDialect dialect, Statement lock, Statement unlock) {
        return new SessionLocks(dialect, lock, unlock);
    }

    /** Locks the process keeps, in {@code keys}. */
    static KeyLocks inProcess(ProcessKeys keys) {
        return new ProcessLocks(keys);
    }
}
