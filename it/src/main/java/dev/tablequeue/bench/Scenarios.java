package dev.tablequeue.bench;

/** What a case measures. */
final class Scenarios {
    /** Claim, handle (no-op) and acknowledge every row of a prefilled table. */
    static final String CONSUME = "consume";
    /** As {@link #CONSUME}, on a database with the server's default {@code synchronous_commit = on}. */
    static final String CONSUME_DURABLE = "consume, synchronous_commit=on";
    /** One insert per message, each committed on its own. */
    static final String PUBLISH_ONE = "publish, one per commit";
    /** Messages written in batches, one commit per batch. */
    static final String PUBLISH_BATCH = "publish, batches of 100";

    private Scenarios() {}
}
