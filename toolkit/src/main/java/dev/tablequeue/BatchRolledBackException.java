package dev.tablequeue;

/** A settlement of a batch whose shared transaction an earlier settlement rolled back. */
public class BatchRolledBackException extends SettlementFailureException {
    private static final long serialVersionUID = 1L;

    public BatchRolledBackException(String message) {
        super(message);
    }

    public BatchRolledBackException(String message, Throwable cause) {
        super(message, cause);
    }
}
