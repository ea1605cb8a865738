package dev.tablequeue.test.contract;

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
 * The sessions of a live server as an operator sees them: those connected to a database, those whose statement
 * waits on a row lock, and killing one (as a failover, a proxy or an operator does), on PostgreSQL, MariaDB and
 * MySQL. The suites use it only where the hook says the server's sessions can be killed
 * ({@link ContractDatabase#killsSessions()}); a service's own fault drills may use it too.
 */
public final class ServerSessions {
    private final Engine engine;
    private final DataSource admin;

    /**
     * Sees the sessions of {@code engine}'s server through {@code admin}'s connections.
     *
     * @throws IllegalArgumentException where the engine has no server sessions (SQLite)
     */
    public ServerSessions(Engine engine, DataSource admin) {
        if (engine != Engine.POSTGRES && engine != Engine.MARIADB && engine != Engine.MYSQL) {
            throw new IllegalArgumentException(engine + " has no server sessions");
        }
        this.engine = engine;
        this.admin = admin;
    }

    /**
     * The sessions connected to {@code database}, but for the one that asks: what an operator ends to cut
     * every client of a database off.
     */
    public List<Long> connectedTo(String database) throws SQLException {
        String sql = engine == Engine.POSTGRES
                ? "select pid from pg_stat_activity where datname = ? and pid <> pg_backend_pid()"
                        + " and backend_type = 'client backend'"
                : "select id from information_schema.processlist where db = ? and id <> connection_id()";
        return sessions(sql, database);
    }

    /** The sessions whose statement, its text like {@code like} (SQL {@code LIKE}), waits on a row lock. */
    public List<Long> waitingOnALock(String like) throws SQLException {
        String sql = engine == Engine.POSTGRES
                ? "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"
                        + " and query like ?"
                : "select trx_mysql_thread_id from information_schema.innodb_trx where trx_state = 'LOCK WAIT'"
                        + " and trx_query like ?";
        return sessions(sql, like);
    }

    private List<Long> sessions(String sql, String parameter) throws SQLException {
        try (Connection c = admin.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
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
    public void kill(long session) throws SQLException {
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute(engine == Engine.POSTGRES
                    ? "select pg_terminate_backend(" + session + ")"
                    : "kill connection " + session);
        }
    }
}
