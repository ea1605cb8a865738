package dev.tablequeue.internal;

import dev.tablequeue.dialect.TransactionOpening;
import java.sql.Connection;
import java.sql.SQLException;

/** Opens and ends the transactions of a delivery's work as the dialect's {@link TransactionOpening} says. */
public final class Transactions {
    private Transactions() {}

    public static void begin(Connection c, TransactionOpening opening) throws SQLException {
        if (opening.explicit()) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
        } else {
            c.setAutoCommit(false);
        }
        if (opening.sql().isPresent()) {
            Jdbc.execute(c, opening.sql().get());
        }
    }

    public static void commit(Connection c, TransactionOpening opening) throws SQLException {
        if (opening.explicit()) {
            Jdbc.execute(c, "COMMIT");
        } else {
            c.commit();
            c.setAutoCommit(true);
        }
    }

    public static void rollback(Connection c, TransactionOpening opening) throws SQLException {
        if (opening.explicit()) {
            Jdbc.execute(c, "ROLLBACK");
        } else {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    /**
     * Rolls back and opens a new transaction on the same connection; auto-commit stays off in between, so no
     * round trip goes to switching it.
     */
    public static void restart(Connection c, TransactionOpening opening) throws SQLException {
        if (opening.explicit()) {
            Jdbc.execute(c, "ROLLBACK");
        } else {
            c.rollback();
        }
        if (opening.sql().isPresent()) {
            Jdbc.execute(c, opening.sql().get());
        }
    }

    /** Rolls back, ignoring a failure: used where a failure is already on its way up. */
    public static void rollbackQuietly(Connection c, TransactionOpening opening) {
        try {
            rollback(c, opening);
        } catch (SQLException | RuntimeException ignored) {
            // the connection is broken or the transaction is gone; either way nothing stays held
        }
    }
}
