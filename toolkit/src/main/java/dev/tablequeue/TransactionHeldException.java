package dev.tablequeue;

/** A settlement while the handler still holds the delivery's transaction. */
public class TransactionHeldException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public TransactionHeldException(String message) {
        super(message);
    }

    public TransactionHeldException(String message, Throwable cause) {
        super(message, cause);
    }
}
