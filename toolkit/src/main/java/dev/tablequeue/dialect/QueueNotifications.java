package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A database's notifications of new rows, as operations: the notification a publish sends on its table's channel
 * in its own transaction (listeners hear it once that commits), and a connection that listens. PostgreSQL's
 * LISTEN/NOTIFY; a database without notifications refuses a listener, saying why ({@link #none}), and a broker
 * with {@code listenNotify()} does not start on it.
 *
 * <p>This SPI may still change before 1.0.
 */
public interface QueueNotifications {

    /** Why no connection can listen on this database (it has no notifications); empty where one can. */
    Optional<String> refuseListener();

    /** Why {@code channel} cannot carry notifications (a name over the server's limit); empty where it can. */
    Optional<String> refuse(String channel);

    /** What a notification on {@code channel} runs, for a start or the build-time check to prepare. */
    List<Statement> statements(String channel);

    /** Notifies the listeners of {@code channel} in the transaction {@code c} has open, {@code group} its payload. */
    void notify(Connection c, String channel, String group) throws SQLException;

    /** Listens on {@code connection} for the notifications of {@code channels}, until it unlistens. */
    Notifications listen(Connection connection, Collection<String> channels) throws SQLException;

    /** The notifications of a database that has none ({@code database} names it): a listener is refused. */
    static QueueNotifications none(String database) {
        return new QueueNotifications() {
            @Override
            public Optional<String> refuseListener() {
                return Optional.of("listenNotify() needs a database with notifications (PostgreSQL); " + database
                        + " has none");
            }

            @Override
            public Optional<String> refuse(String channel) {
                return refuseListener();
            }

            @Override
            public List<Statement> statements(String channel) {
                return List.of();
            }

            @Override
            public void notify(Connection c, String channel, String group) {
                throw new DialectException(database, channel, "this database sends no notifications");
            }

            @Override
            public Notifications listen(Connection connection, Collection<String> channels) {
                throw new DialectException(database, String.join(", ", channels),
                        "this database delivers no notifications");
            }
        };
    }
}
