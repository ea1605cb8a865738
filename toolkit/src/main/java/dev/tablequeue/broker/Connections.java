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
     * Whether {@code failure} means the connection is gone: a JDBC connection exception (SQL state class 08, or
     * one of JDBC's connection exception types) anywhere in its causes, or {@code connection} no longer valid.
     */
    static boolean lost(Throwable failure, Connection connection) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof SQLRecoverableException || e instanceof SQLNonTransientConnectionException
                    || e instanceof SQLTransientConnectionException) {
                return true;
            }
            if (e instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
        }
        if (connection == null) {
            return false;
        }
        try {
            // the server's own words for a killed session differ by database; a dead connection does not
            return !connection.isValid(1);
        } catch (SQLException e) {
            return true;
        }
    }
}
