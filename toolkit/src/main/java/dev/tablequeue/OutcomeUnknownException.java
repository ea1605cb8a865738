package dev.tablequeue;

/**
 * An outcome that may or may not have been written: the connection failed while its commit was under way
 * (the server killed the session, the network dropped), and no later attempt settled it. The row may be
 * settled, or back in the queue once its lease or lock is gone; a handler with effects outside the database
 * should be idempotent. Names the outcome, the row and the table; the connection's failure is the cause.
 */
public class OutcomeUnknownException extends SettlementFailureException {
    private static final long serialVersionUID = 1L;

    private final String table;
    private final transient Object rowId;

    public OutcomeUnknownException(String message, String table, Object rowId, Throwable cause) {
        super(message, cause);
        this.table = table;
        this.rowId = rowId;
    }

    /** The queue table whose row was being settled. */
    public String table() {
        return table;
    }

    /** The id of the row. */
    public Object rowId() {
        return rowId;
    }
}
