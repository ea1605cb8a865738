package dev.tablequeue.dialect;

import java.sql.SQLException;
import java.util.List;

/**
 * The notifications one connection listens for, from {@link QueueNotifications#listen}: the broker's listener
 * thread polls it for as long as the connection lives.
 *
 * <p>This SPI may still change before 1.0.
 */
public interface Notifications {

    /** A notification: the channel (a table's) and its payload (a group, or empty). */
    record Notification(String channel, String payload) {}

    /** The notifications that arrived, waiting up to {@code millis} for one; empty where none came. */
    List<Notification> poll(int millis) throws SQLException;

    /** Stops listening on every channel, before the connection goes back to the pool. */
    void unlisten() throws SQLException;
}
