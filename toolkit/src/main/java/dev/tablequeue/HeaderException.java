package dev.tablequeue;

/** A header a table cannot keep, or headers that do not decode. */
public class HeaderException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public HeaderException(String message) {
        super(message);
    }

    public HeaderException(String message, Throwable cause) {
        super(message, cause);
    }
}
