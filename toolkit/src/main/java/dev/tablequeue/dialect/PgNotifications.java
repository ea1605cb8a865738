package dev.tablequeue.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * PostgreSQL's notifications through pgjdbc: {@code LISTEN} on each channel (quoted), then the driver's
 * {@code getNotifications(timeout)}. Kept apart from {@link PostgresDialect}, so that only a broker that
 * listens loads the driver's classes.
 */
final class PgNotifications implements Notifications {
    private final Connection connection;
    private final PGConnection pg;

    private PgNotifications(Connection connection, PGConnection pg) {
        this.connection = connection;
        this.pg = pg;
    }

    static Notifications listen(Connection connection, Collection<String> channels) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        for (String channel : channels) {
            execute(connection, "LISTEN \"" + channel.replace("\"", "\"\"") + "\"");
        }
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
        return new PgNotifications(connection, pg);
    }

    @Override
    public List<Notification> poll(int millis) throws SQLException {
        PGNotification[] received = pg.getNotifications(millis);
        if (received == null) {
            return List.of();
        }
        List<Notification> list = new ArrayList<>(received.length);
        for (PGNotification n : received) {
            list.add(new Notification(n.getName(), n.getParameter()));
        }
        return list;
    }

    @Override
    public void unlisten() throws SQLException {
        execute(connection, "UNLISTEN *");
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
