package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;

/** Claim forms, and the peer's polling strategy, as the report prints them. */
final class Forms {
    static final String ROW_LOCK = "row lock";
    static final String LEASE = "lease";
    static final String ADVISORY = "advisory";
    static final String DB_SCHEDULER = "db-scheduler lock-and-fetch";
    static final String NONE = "-";

    private Forms() {}

    static String of(Form form) {
        return switch (form) {
            case ROW_LOCK -> ROW_LOCK;
            case LEASE -> LEASE;
            case ADVISORY -> ADVISORY;
        };
    }
}
