package dev.tablequeue.broker;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;

/** Tells a connection that failed (killed by the server, dropped by the network) from a statement that failed. */
final class Connections {
    private Connections() {}

    /**
     * Whether {@code failure} means the connection is gone. A connection exception's SQL state (class 08)
     * anywhere in its causes says so. Otherwise, where the failure came from a statement on {@code connection},
     * the connection decides: gone where it no longer answers. The exception's type does not: MariaDB's driver
     * raises every SQL state it has no type of its own for as a {@link SQLTransientConnectionException}, a
     * trigger's {@code SIGNAL SQLSTATE '45000'} among them, on a connection that is sound, and a statement the
     * server refused is no lost connection: it fails, and is neither written again nor reported as possibly
     * written. Without a connection (none came from the pool), one of JDBC's connection exception types says so.
     */
    static boolean lost(Throwable failure, Connection connection) {
        boolean connectionType = false;
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
            connectionType |= e instanceof SQLRecoverableException || e instanceof SQLNonTransientConnectionException
                    || e instanceof SQLTransientConnectionException;
        }
        if (connection == null) {
            return connectionType;
        }
        try {
            // the server's own words for a killed session differ by database; a dead connection does not
            return !connection.isValid(1);
        } catch (SQLException e) {
            return true;
        }
    }
}
