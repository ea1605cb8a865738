package dev.tablequeue.broker;

/**
 * A connection that failed while a lease statement (an outcome, an extension) was written on it, and whether
 * it had been sent (so may have taken effect); the statement is then written again on another connection
 * while the lease holds.
 */
final class LostConnection extends Exception {
    private static final long serialVersionUID = 1L;

    /** The first pause before a statement is written again; each later one doubles, up to a second. */
    static final long FIRST_PAUSE_MILLIS = 50;

    /** Whether the statement had been sent, or its commit was under way, when the connection failed. */
    final boolean atCommit;

    LostConnection(Throwable cause, boolean atCommit) {
        super(cause);
        this.atCommit = atCommit;
    }

    /** Waits {@code millis} before the statement is written again; false where the thread was interrupted. */
    static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
