package dev.tablequeue.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The claim of one queue table in the row lock or the lease form, as operations on a connection: each takes
 * due rows of a group in claim order and returns them read by the caller's {@link ClaimedRows}. What a claim
 * runs to get there (a FIFO guard first, the claim, a lease stamp of its rows, the service's own claim and
 * fetch, rows sorted where the statement returns them in no order, a claim made again where the database
 * holds rows it read past), and how a lease is extended, is its dialect's, decided once, when the subscription opens ({@link
 * QueueDialect#claims}).
 */
public interface QueueClaims {

    /**
     * Every statement the claim may run, the claim first: a subscription prepares them when it starts, and the
     * build-time check prepares the same ones.
     */
    List<Statement> statements();

    /**
     * The claim's statement as a claim of {@code limit} rows runs it: the first of {@link #statements()}, unless
     * the dialect writes each limit into a text of its own.
     */
    default Statement claim(int limit) {
        return statements().get(0);
    }

    /** How many rows one claim takes for {@code free} workers: one where the table keeps order or the service claims. */
    int limit(int free);

    /**
     * Row lock form: claims up to {@code limit} rows of {@code group} due at {@code now}, locked in the
     * transaction {@code c} has open (opened as {@link QueueDialect#transactionOpening} says), which holds them
     * until it ends. The claim may roll that transaction back and open it again before it takes its rows; it
     * holds no row it does not return.
     */
    <R> List<R> claimLocked(Connection c, String group, Instant now, int limit, ClaimedRows<R> rows)
            throws SQLException;

    /**
     * Lease form: claims up to {@code limit} rows of {@code group} due at {@code now}, their leases written to
     * {@code until} and their attempts counted, and commits. {@code c} is in auto-commit, and is again when the
     * claim returns or fails; a claim that fails has leased nothing.
     */
    <R> List<R> claimLeased(Connection c, String group, Instant now, Instant until, int limit, ClaimedRows<R> rows)
            throws SQLException;

    /**
     * Lease form: moves the lease of row {@code id} from {@code held} to {@code until} where the row still holds
     * {@code held} (no later claim took it meanwhile), with the dialect's statement or the service's own
     * extension. {@code c} is in auto-commit.
     *
     * @return whether the row held {@code held}, and now holds {@code until}
     */
    boolean extendLease(Connection c, Object id, Instant held, Instant until) throws SQLException;

    /**
     * Row lock form: how a session's wait for a row lock is bounded to {@code bound} (whole seconds where the
     * database counts no finer), for the statements a handler runs on the claim's table through
     * {@code delivery.db()}: the row may be the delivery's own, which its claim holds locked until it settles.
     */
    LockWait lockWait(Duration bound);
}
