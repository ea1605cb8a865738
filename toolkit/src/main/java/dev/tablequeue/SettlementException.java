package dev.tablequeue;

/**
 * An outcome that was not written because a statement of its settlement failed in the database: names the
 * outcome, the row, the table and the statement with its SQL. The driver's exception is the cause.
 */
public class SettlementException extends SettlementFailureException {
    private static final long serialVersionUID = 1L;

    private final String table;
    private final transient Object rowId;
    private final String statement;
    private final String sql;

    /**
     * @param rowId the id of the row whose outcome failed; null where a statement of several rows failed
     *     without the driver saying which
     * @param statement what the statement does ("ack", "dead letter copy", "commit", "own retry", ...)
     * @param sql its text; null for the service's own event, whose SQL the service wrote
     */
    public SettlementException(String message, String table, Object rowId, String statement, String sql,
            Throwable cause) {
        super(message, cause);
        this.table = table;
        this.rowId = rowId;
        this.statement = statement;
        this.sql = sql;
    }

    /** The queue table whose row was being settled. */
    public String table() {
        return table;
    }

    /** The id of the row, or null where the failed statement wrote several rows and the driver named none. */
    public Object rowId() {
        return rowId;
    }

    /** What the failed statement does. */
    public String statement() {
        return statement;
    }

    /** The failed statement's SQL, or null for the service's own event. */
    public String sql() {
        return sql;
    }
}
