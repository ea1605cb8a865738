package dev.tablequeue.maven;

/**
 * The lines the checker writes for the goal to log: {@code PREFIX + level + ' ' + text}. Anything else the
 * checker's JVM prints (a driver's or Flyway's own logging) is logged by the goal at debug level.
 */
public final class Protocol {
    /** Starts every line of the report. */
    public static final String PREFIX = "[tablequeue:check] ";
    /** A violation: the build fails. */
    public static final String ERROR = "ERROR";
    /** A warning: the build fails only with {@code failOnWarning}. */
    public static final String WARN = "WARN";
    /** A database left out (an optional server that cannot be reached): said aloud, and not a warning. */
    public static final String SKIP = "SKIP";
    /** What was checked. */
    public static final String INFO = "INFO";
    /** The last line: {@code RESULT <violations> <warnings>}. */
    public static final String RESULT = "RESULT";

    private Protocol() {}

    /** One line of the report. */
    public static String line(String level, String text) {
        return PREFIX + level + " " + text;
    }
}
