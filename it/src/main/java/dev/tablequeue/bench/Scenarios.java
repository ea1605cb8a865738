package dev.tablequeue.bench;

/** What a case measures. */
final class Scenarios {
    /** Claim, handle (no-op) and acknowledge every row of a prefilled table. */
    static final String CONSUME = "consume";
    /** As {@link #CONSUME}, on a database with the server's default {@code synchronous_commit = on}. */
    static final String CONSUME_DURABLE = "consume, synchronous_commit=on";
    /**
     * As {@link #CONSUME}, with {@code transactional()}: each handler inserts one row through its delivery's
     * transaction, committed with the acknowledgement.
     */
    static final String CONSUME_TRANSACTIONAL = "consume, transactional";
    /** As {@link #CONSUME_TRANSACTIONAL}, on a database with the server's default {@code synchronous_commit = on}. */
    static final String CONSUME_TRANSACTIONAL_DURABLE = "consume, transactional, synchronous_commit=on";
    /** As {@link #CONSUME}, with {@code batch(n)}: one claim of up to n rows for one handler. */
    static String consumeBatch(int n) {
        return "consume, batch(" + n + ")";
    }

    /** Whether {@code scenario} is one of {@link #consumeBatch}'s. */
    static boolean isBatch(String scenario) {
        return scenario.startsWith("consume, batch(");
    }

    /** As {@link #CONSUME}, on a table that also holds many acknowledged rows (their processed_at kept). */
    static final String CONSUME_GROWN = "consume, beside acknowledged rows";
    /** The same, while the broker's retention deletes the old acknowledged rows (issue 36). */
    static final String CONSUME_RETAINED = "consume, while retention deletes acknowledged rows";

    /** One insert per message, each committed on its own. */
    static final String PUBLISH_ONE = "publish, one per commit";
    /** Messages written in batches, one commit per batch. */
    static final String PUBLISH_BATCH = "publish, batches of 100";

    /** One publish into the table broker per jOOQ transaction of the caller's: the outbox's cost on a publish. */
    static final String OUTBOX_PUBLISH = "outbox: publish in the caller's transaction";
    /** Deliveries of rows that carry a record id: the outbox's cost on a delivery. */
    static final String OUTBOX_DELIVERY = "outbox: delivery";

    private Scenarios() {}
}
