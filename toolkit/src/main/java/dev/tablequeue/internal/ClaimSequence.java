package dev.tablequeue.internal;

import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.dialect.QueueKeys;
import dev.tablequeue.dialect.Statement;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * The advisory claim of one queue ({@link QueueKeys}: a table, and a group where it has one) bound to that group, a
 * clock and how its rows are read: the runtime's advisory claimer runs it over deliveries, the dialect tests over
 * column maps. Which steps run, in which transaction, is the caller's.
 *
 * @param <R> what a claimed row is read as
 */
public class ClaimSequence<R> {
    private final QueueKeys keys;
    private final String group;
    private final Supplier<Instant> clock;
    private final ClaimedRows<R> rows;

    /**
     * @param group the queue's group, or null where the table has none
     * @param clock the host's "now" of the candidates, the takes and the walks
     */
    public ClaimSequence(QueueKeys keys, String group, Supplier<Instant> clock, ClaimedRows<R> rows) {
        this.keys = keys;
        this.group = group;
        this.clock = clock;
        this.rows = rows;
    }

    /** {@link QueueKeys#candidates} of this queue, now. */
    public List<QueueKeys.Candidate> candidates(Connection c, int limit) throws SQLException {
        return keys.candidates(c, group, clock.get(), limit);
    }

    /** {@link QueueKeys#take} of this queue's row of {@code id}, now. */
    public List<R> take(Connection c, Object id) throws SQLException {
        return keys.take(c, group, clock.get(), id, rows);
    }

    /** {@link QueueKeys#locksAndTakes}. */
    public boolean locksAndTakes() {
        return keys.locksAndTakes();
    }

    /** {@link QueueKeys#lockAndTake} of a candidate of this queue, now. */
    public List<R> lockAndTake(Connection c, QueueKeys.Candidate candidate) throws SQLException {
        return keys.lockAndTake(c, group, clock.get(), candidate, rows);
    }

    /** {@link QueueKeys#walks}. */
    public boolean walks() {
        return keys.walks();
    }

    /** {@link QueueKeys#walk} of this queue, now. */
    public QueueKeys.Walked<R> walk(Connection c) throws SQLException {
        return keys.walk(c, group, clock.get(), rows);
    }

    /** {@link QueueKeys#settleAndWalk} on to this queue's next row, now. */
    public QueueKeys.SettledWalk<R> settleAndWalk(Connection c, Statement statement, Binds binds, String key)
            throws SQLException {
        return keys.settleAndWalk(c, statement, binds, key, group, clock.get(), rows);
    }

    /** {@link QueueKeys#fetch} of the row of {@code id}. */
    public List<R> fetch(Connection c, Object id) throws SQLException {
        return keys.fetch(c, id, rows);
    }
}
