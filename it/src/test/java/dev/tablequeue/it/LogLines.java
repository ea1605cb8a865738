package dev.tablequeue.it;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The log lines written while it is open: the test logger (slf4j-simple) writes to {@code System.err},
 * which this tees into a buffer until it is closed.
 */
final class LogLines implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    private LogLines() {
        OutputStream both = new OutputStream() {
            @Override
            public void write(int b) {
                original.write(b);
                synchronized (captured) {
                    captured.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                original.write(b, off, len);
                synchronized (captured) {
                    captured.write(b, off, len);
                }
            }
        };
        System.setErr(new PrintStream(both, true, StandardCharsets.UTF_8));
    }

    static LogLines capture() {
        return new LogLines();
    }

    /** Every line written so far. */
    List<String> lines() {
        synchronized (captured) {
            return Arrays.asList(captured.toString(StandardCharsets.UTF_8).split("\\R"));
        }
    }

    /** The lines at level {@code level} (WARN, ERROR, ..) that contain {@code text}. */
    List<String> at(String level, String text) {
        return lines().stream().filter(l -> l.contains(" " + level + " ") && l.contains(text)).toList();
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
