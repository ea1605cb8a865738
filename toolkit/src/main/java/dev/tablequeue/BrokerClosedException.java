package dev.tablequeue;

/** A publish or settlement after the broker closed. */
public class BrokerClosedException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public BrokerClosedException(String message) {
        super(message);
    }

    public BrokerClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
