package dev.tablequeue;

/** A settlement that came after its lease ran out, when another claim may hold the row: it changed nothing. */
public class LeaseLostException extends SettlementFailureException {
    private static final long serialVersionUID = 1L;

    public LeaseLostException(String message) {
        super(message);
    }

    public LeaseLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
