package dev.tablequeue.maven;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;
import org.apache.maven.plugin.logging.Log;

/**
 * Takes the checker's output line by line: the report's lines go to Maven's log at their level, everything
 * else at debug level (the last few are kept for an error message), and the closing {@code RESULT} line is
 * read into the counts.
 */
final class Report implements Consumer<String> {
    private static final int KEPT = 30;

    private final Log log;
    private final Deque<String> other = new ArrayDeque<>();
    private boolean ended;
    private int violations;
    private int warnings;

    Report(Log log) {
        this.log = log;
    }

    @Override
    public synchronized void accept(String line) {
        if (!line.startsWith(Protocol.PREFIX)) {
            log.debug(line);
            other.addLast(line);
            if (other.size() > KEPT) {
                other.removeFirst();
            }
            return;
        }
        String body = line.substring(Protocol.PREFIX.length());
        int space = body.indexOf(' ');
        String level = space < 0 ? body : body.substring(0, space);
        String text = space < 0 ? "" : body.substring(space + 1);
        switch (level) {
            case Protocol.ERROR -> log.error(text);
            case Protocol.WARN, Protocol.SKIP -> log.warn(text);
            case Protocol.RESULT -> {
                String[] counts = text.trim().split(" ");
                violations = Integer.parseInt(counts[0]);
                warnings = Integer.parseInt(counts[1]);
                ended = true;
            }
            default -> log.info(text);
        }
    }

    /** Whether the checker came to its end and said how it went. */
    synchronized boolean ended() {
        return ended;
    }

    synchronized int violations() {
        return violations;
    }

    synchronized int warnings() {
        return warnings;
    }

    /** The last lines the checker printed outside the report, for an error message. */
    synchronized String tail() {
        return String.join(System.lineSeparator(), other);
    }
}
