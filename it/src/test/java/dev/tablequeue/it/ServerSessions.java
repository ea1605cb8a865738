package dev.tablequeue.it;

import dev.tablequeue.test.Engine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The sessions of a live server as an operator sees them: those connected to a database, and killing one (as a
 * failover, a proxy or an operator does), on PostgreSQL and MariaDB, for the connection drill. (The kit's suites
 * have their own, for the sessions that wait on a row lock.)
 */
final class ServerSessions {
    private final Engine engine;
    private final DataSource admin;

    ServerSessions(Engine engine, DataSource admin) {
        if (engine != Engine.POSTGRES && engine != Engine.MARIADB
                && engine != Engine.MYSQL) {
            throw new IllegalArgumentException(engine + " has no server sessions");
        }
        this.engine = engine;
        this.admin = admin;
    }

    /**
     * The sessions connected to {@code database}, but for the one that asks: what an operator ends to cut
     * every client of a database off.
     */
    List<Long> connectedTo(String database) throws SQLException {
        String sql = engine == Engine.POSTGRES
                ? "select pid from pg_stat_activity where datname = ? and pid <> pg_backend_pid()"
                        + " and backend_type = 'client backend'"
                : "select id from information_schema.processlist where db = ? and id <> connection_id()";
        try (Connection c = admin.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, database);
            List<Long> sessions = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sessions.add(rs.getLong(1));
                }
            }
            return sessions;
        }
    }

    /** Ends {@code session} on the server: its statement fails and its connection is gone. */
    void kill(long session) throws SQLException {
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute(engine == Engine.POSTGRES
                    ? "select pg_terminate_backend(" + session + ")"
                    : "kill connection " + session);
        }
    }
}
