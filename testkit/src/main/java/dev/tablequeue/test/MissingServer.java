package dev.tablequeue.test;

import org.opentest4j.TestAbortedException;

/**
 * What a test does where its server cannot be found or reached: by default it fails, saying what to set, so that
 * no build passes with its queue tests unrun; where {@value #SKIP_VARIABLE}{@code =1} (or the system property
 * {@value #SKIP_PROPERTY}{@code =true}) opts in, it is skipped, and the reason is printed on the error stream.
 *
 * <p>{@code TABLEQUEUE_REQUIRE_LIVE=1}, which tablequeue's own CI sets, vetoes the opt-in: a missing server fails
 * there even where the skip variable is set by mistake.
 */
final class MissingServer {
    /** The environment variable that turns a missing server from a failure into a skip. */
    static final String SKIP_VARIABLE = "TABLEQUEUE_SKIP_UNREACHABLE";
    /** The system property that does the same, for a build that sets its tests' properties. */
    static final String SKIP_PROPERTY = "tablequeue.skip.unreachable";

    private MissingServer() {}

    /** Whether a missing server skips the tests that need it instead of failing them. */
    static boolean skipOptedIn() {
        if ("1".equals(System.getenv("TABLEQUEUE_REQUIRE_LIVE"))) {
            return false;
        }
        return "1".equals(System.getenv(SKIP_VARIABLE)) || Boolean.getBoolean(SKIP_PROPERTY);
    }

    /** The sentence a failure ends with: where the server comes from, and how to skip instead. */
    static String whatToSet(Engine engine) {
        return "Set " + engine.variable() + " (or the system property " + engine.property() + ") to the"
                + " administrative JDBC URL of a reachable " + engine + " server (one that may create and drop"
                + " databases), or set neither and start Docker so that Testcontainers runs one; or set "
                + SKIP_VARIABLE + "=1 to skip these tests instead";
    }

    /**
     * The exception of a test {@code who} whose {@code engine} server is missing for reason {@code why}: an
     * {@link IllegalStateException} that says what to set, or where {@code skip}, a {@link TestAbortedException}
     * whose reason is also printed on the error stream.
     */
    static RuntimeException outcome(String who, Engine engine, String why, Exception cause, boolean skip) {
        if (skip) {
            return new TestAbortedException(skipped(who, why), cause);
        }
        // a driver's message often ends a sentence already
        String stated = why.endsWith(".") ? why : why + ".";
        return new IllegalStateException(who + ": " + stated + " " + whatToSet(engine), cause);
    }

    /** The reason {@code who} is skipped, printed on the error stream (a skip must never pass unseen). */
    static String skipped(String who, String why) {
        String reason = who + " skipped (" + SKIP_VARIABLE + "=1): " + why;
        System.err.println("tablequeue test kit: " + reason);
        return reason;
    }
}
