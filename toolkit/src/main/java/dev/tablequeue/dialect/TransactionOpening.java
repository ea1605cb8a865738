package dev.tablequeue.dialect;

import java.util.Optional;

/**
 * How to open a transaction at a binding's level or mode.
 *
 * @param explicit false: switch JDBC auto-commit off, then run {@code sql} (if any) as the transaction's
 *     first statement, and end with {@code Connection.commit()/rollback()}; true: leave auto-commit on, run
 *     {@code sql} (a {@code BEGIN ..}), and end with the statements {@code COMMIT} / {@code ROLLBACK}
 * @param sql the statement that opens or sets up the transaction, if the database needs one
 */
public record TransactionOpening(boolean explicit, Optional<String> sql) {
    /** Auto-commit off and the database's default level. */
    public static final TransactionOpening DEFAULT = new TransactionOpening(false, Optional.empty());
}
