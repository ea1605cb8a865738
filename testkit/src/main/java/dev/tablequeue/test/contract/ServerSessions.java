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
 * The sessions of a live server as an operator sees them: those whose statement waits on a row lock, and
 * killing one (as a failover, a proxy or an operator does), on PostgreSQL, MariaDB and MySQL. The suites use it
 * only where the hook says the server's sessions can be killed ({@link ContractDatabase#killsSessions()}).
 */
final class ServerSessions {
    private final Engine engine;
    private final DataSource admin;

    ServerSessions(Engine engine, DataSource admin) {
        if (engine != Engine.POSTGRES && engine != Engine.MARIADB && engine != Engine.MYSQL) {
            throw new IllegalArgumentException(engine + " has no server sessions");
        }
        this.engine = engine;
        this.admin = admin;
    }

    /** The sessions whose statement, its text like {@code like} (SQL {@code LIKE}), waits on a row lock. */
    List<Long> waitingOnALock(String like) throws SQLException {
        String sql = engine == Engine.POSTGRES
                ? "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"
                        + " and query like ?"
                : "select trx_mysql_thread_id from information_schema.innodb_trx where trx_state = 'LOCK WAIT'"
                        + " and trx_query like ?";
        try (Connection c = admin.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, like);
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
