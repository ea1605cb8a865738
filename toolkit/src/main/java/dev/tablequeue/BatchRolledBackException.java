package dev.tablequeue;

/** A settlement of a batch whose shared transaction an earlier settlement rolled back. */
public class BatchRolledBackException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public BatchRolledBackException(String message) {
        super(message);
    }

    public BatchRolledBackException(String message, Throwable cause) {
        super(message, cause);
    }
}
