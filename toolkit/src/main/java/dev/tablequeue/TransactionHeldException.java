package dev.tablequeue;

/**
 * A statement through a delivery's transaction ({@code delivery.tx()}) after its handler returned: that
 * transaction ends with the delivery's settlement, so the statement runs nowhere and commits nothing. A
 * handler that returned while a statement of its own still ran on the transaction (on a thread it started)
 * has its writes rolled back, and its delivery settles as a failed one, with this exception as the cause.
 */
public class TransactionHeldException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public TransactionHeldException(String message) {
        super(message);
    }
}
