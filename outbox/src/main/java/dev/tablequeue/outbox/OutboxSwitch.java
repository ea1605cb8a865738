package dev.tablequeue.outbox;

/**
 * Whether the outbox tracks: always, except under a test kit, which sets the system property
 * {@code tablequeue.testkit=true}; there it is off (the middlewares pass every message untouched, the
 * republish sends nothing, no table is needed) unless the environment sets {@code TABLEQUEUE_OUTBOX=on}.
 */
final class OutboxSwitch {
    static final String TEST_KIT_PROPERTY = "tablequeue.testkit";
    static final String VARIABLE = "TABLEQUEUE_OUTBOX";

    private OutboxSwitch() {}

    /** The switch as this process sets it. */
    static boolean enabled() {
        return enabled(System.getProperty(TEST_KIT_PROPERTY), System.getenv(VARIABLE));
    }

    /** Off only under a test kit ({@code testKit} "true") that the variable does not turn on. */
    static boolean enabled(String testKit, String variable) {
        return !"true".equalsIgnoreCase(testKit) || "on".equalsIgnoreCase(variable);
    }
}
