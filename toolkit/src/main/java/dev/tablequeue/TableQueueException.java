package dev.tablequeue;

/** The root of every exception tablequeue throws; unchecked, as jOOQ's are. */
public class TableQueueException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TableQueueException(String message) {
        super(message);
    }

    public TableQueueException(String message, Throwable cause) {
        super(message, cause);
    }
}
