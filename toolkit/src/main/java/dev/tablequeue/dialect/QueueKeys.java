package dev.tablequeue.dialect;

import dev.tablequeue.internal.Binds;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The claim of one queue table in the advisory form, as operations on a connection: due rows' candidates, the
 * take of a row whose key the connection holds, the lock and take of a candidate in one statement, and the walk
 * that claims one row without candidates. Which of them a database runs, and how (the take returning its row or
 * followed by a fetch, the service's own fetch), is its dialect's, decided once, when the subscription opens
 * ({@link QueueDialect#keys}); which steps run in which order, and in which transaction, is the caller's.
 */
public interface QueueKeys {

    /** An advisory candidate: a row's id and its key. */
    record Candidate(Object id, String key) {}

    /**
     * What a walk came to: the row it took and the key its connection now holds (both null where it took none);
     * whether it locked a key (where it took nothing, the row was settled after the walk began, and a walk made
     * again reads the table after that settlement); whether it gave up after the rows it may try, so that a row
     * of a free key may lie behind them (candidates find it).
     *
     * @param <R> what the row is read as
     */
    record Walked<R>(R row, String key, boolean locked, boolean cut) {
        /** Whether it took a row. */
        public boolean took() {
            return row != null;
        }
    }

    /**
     * What a settlement that walks on came to: whether the session held the settled row's key (where it did not,
     * its connection must end its session), and the walk's result.
     *
     * @param <R> what the walked row is read as
     */
    record SettledWalk<R>(boolean unlocked, Walked<R> walked) {}

    /**
     * Every statement the claim may run, the candidates first: a subscription prepares them when it starts, and
     * the build-time check prepares the same ones.
     */
    List<Statement> statements();

    /**
     * The candidates of {@code group} due at {@code now}, in claim order, up to {@code limit}: each row's id and
     * key, keys held elsewhere left out where the database can see them.
     */
    List<Candidate> candidates(Connection c, String group, Instant now, int limit) throws SQLException;

    /**
     * Takes the row of {@code id}, whose key {@code c} holds, while it is still claimable at {@code now}, counting
     * its attempt: the row, or none where it is no longer claimable.
     */
    <R> List<R> take(Connection c, String group, Instant now, Object id, ClaimedRows<R> rows) throws SQLException;

    /** Whether a candidate's key and row are taken in one statement here ({@link #lockAndTake}). */
    boolean locksAndTakes();

    /**
     * Takes a candidate's key and its row in one statement: the row, whose key {@code c} then holds; none where it
     * took neither (the key is held elsewhere, or the row is no longer claimable). Only where {@link
     * #locksAndTakes()}.
     */
    <R> List<R> lockAndTake(Connection c, String group, Instant now, Candidate candidate, ClaimedRows<R> rows)
            throws SQLException;

    /** Whether the claim of one row walks the rows and takes one in one statement here ({@link #walk}). */
    boolean walks();

    /**
     * The claim of one row in one statement: the first claimable row of {@code group} in claim order whose key it
     * could lock, taken, with that key, which {@code c} then holds; where it took none, {@code c} holds no key the
     * statement locked. Only where {@link #walks()}.
     */
    <R> Walked<R> walk(Connection c, String group, Instant now, ClaimedRows<R> rows) throws SQLException;

    /**
     * An outcome, its row's key's release and the walk to the next row in one statement (one of {@link
     * SubscriptionStatements#walking()}), bound from the outcome's {@code binds} (its row's id among them), the
     * row's {@code key}, and the walk's {@code group} and {@code now}.
     */
    <R> SettledWalk<R> settleAndWalk(Connection c, Statement statement, Binds binds, String key, String group,
            Instant now, ClaimedRows<R> rows) throws SQLException;

    /** Reads one taken row by id: the service's own fetch, or the dialect's; an id without a row fails to decode. */
    <R> List<R> fetch(Connection c, Object id, ClaimedRows<R> rows) throws SQLException;
}
