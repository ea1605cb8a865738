package dev.tablequeue;

/** A publish under a name no route leads to a table. */
public class NoRouteException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public NoRouteException(String message) {
        super(message);
    }

    public NoRouteException(String message, Throwable cause) {
        super(message, cause);
    }
}
