package dev.tablequeue.broker;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * The rows one row lock claim took. They share the claim's transaction on one connection: each handler's
 * outcome waits here until the last of them returns, and the settlement then writes them all in that
 * transaction and commits it once. The connection counts against the broker's budget until the group ends,
 * by its commit or by a release at shutdown.
 */
final class ClaimGroup {
    enum State {
        OPEN,
        SETTLED,
        RELEASED
    }

    final Connection connection;
    /** Held while the group's transaction is written or released, so the two never overlap. */
    final ReentrantLock lock = new ReentrantLock();
    private final List<Settlement.Pending> outcomes = new ArrayList<>();
    private final Runnable onEnd;
    private int outstanding;
    private State state = State.OPEN;
    /** Set where shutdown rolled the group back, so each of its rows counts as a lock released; under {@link #lock}. */
    boolean releasedAtClose;

    /** @param onEnd runs once, when the group's connection has been closed */
    ClaimGroup(Connection connection, int size, Runnable onEnd) {
        this.connection = connection;
        this.outstanding = size;
        this.onEnd = onEnd;
    }

    /** Adds one delivery's outcome; returns every outcome of the group when this was the last, else null. */
    List<Settlement.Pending> add(Settlement.Pending outcome) {
        lock.lock();
        try {
            outcomes.add(outcome);
            return --outstanding == 0 ? List.copyOf(outcomes) : null;
        } finally {
            lock.unlock();
        }
    }

    /** The group's state; read and moved only while {@link #lock} is held. */
    State state() {
        return state;
    }

    /** Moves the group to {@code next} and closes its connection; call with {@link #lock} held, once. */
    void end(State next) {
        end(next, null);
    }

    /**
     * Moves the group to {@code next} and closes its connection, or, with {@code evictFrom}, ends its session
     * instead of returning it to that pool (its transaction's end was not confirmed); with {@link #lock}
     * held, once.
     */
    void end(State next, DataSource evictFrom) {
        state = next;
        try {
            if (evictFrom != null) {
                Pools.evict(evictFrom, connection);
            } else {
                connection.close();
            }
        } catch (Exception ignored) {
            // the pool takes a broken connection back and drops it
        } finally {
            onEnd.run();
        }
    }
}
