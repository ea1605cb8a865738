package dev.tablequeue.bench;

/** How a subscription learns of a published row, in the latency measurement. */
final class Wakeups {
    static final String LISTEN_NOTIFY = "LISTEN/NOTIFY (publisher in another broker)";
    static final String POLLING = "polling every %d ms (publisher in another broker)";
    static final String IN_PROCESS = "in-process wake-up (publisher in the same broker)";

    private Wakeups() {}
}
