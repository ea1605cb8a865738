package dev.tablequeue;

/**
 * An outcome a settlement did not write, or may not have written: what a broker listener's
 * {@code settlementFailed} and {@code settlementUnknown} hear of (besides a {@link BrokerClosedException}
 * for an outcome that came after the close). The row is back in the queue by its form's rule, or, for an
 * {@link OutcomeUnknownException}, possibly settled.
 */
public class SettlementFailureException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public SettlementFailureException(String message) {
        super(message);
    }

    public SettlementFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
