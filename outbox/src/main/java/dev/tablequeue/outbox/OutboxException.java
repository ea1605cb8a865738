package dev.tablequeue.outbox;

import dev.tablequeue.TableQueueException;

/** What the outbox refuses or fails to do: it names the table, the record or the name concerned. */
public class OutboxException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public OutboxException(String message) {
        super(message);
    }

    public OutboxException(String message, Throwable cause) {
        super(message, cause);
    }
}
