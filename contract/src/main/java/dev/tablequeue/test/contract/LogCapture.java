package dev.tablequeue.test.contract;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.LoggerFactory;

/**
 * Keeps what the log writes while it is open, and still lets it through. It reads the log that slf4j-simple
 * writes to {@link System#err}, which it looks up at every line (unless told to cache it), so swapping the stream
 * catches every logger's output, on every thread. Where the test's log goes elsewhere (another slf4j backend, a
 * log file, the broker's warnings turned off), a test that reads it is skipped.
 */
final class LogCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

    private LogCapture() {
        System.setErr(new PrintStream(new Tee(original, kept), true, StandardCharsets.UTF_8));
    }

    /** Starts keeping the log; skips the test (an assumption) where it cannot read the log. */
    static LogCapture start() {
        assumeTrue(readable(), "the log is not slf4j-simple's on System.err with the broker's warnings, which the"
                + " test reads");
        return new LogCapture();
    }

    /** Whether the broker's warnings and errors reach {@link System#err} through slf4j-simple, looked up per line. */
    private static boolean readable() {
        return LoggerFactory.getILoggerFactory().getClass().getName().equals("org.slf4j.simple.SimpleLoggerFactory")
                && System.getProperty("org.slf4j.simpleLogger.logFile", "System.err").equals("System.err")
                && !Boolean.getBoolean("org.slf4j.simpleLogger.cacheOutputStream")
                && LoggerFactory.getLogger("dev.tablequeue.broker.QueueBroker").isWarnEnabled();
    }

    /** Everything logged since the capture started. */
    String text() {
        synchronized (kept) {
            return kept.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        System.err.flush();
        System.setErr(original);
    }

    private static final class Tee extends OutputStream {
        private final OutputStream through;
        private final ByteArrayOutputStream kept;

        Tee(OutputStream through, ByteArrayOutputStream kept) {
            this.through = through;
            this.kept = kept;
        }

        @Override
        public void write(int b) {
            synchronized (kept) {
                kept.write(b);
            }
            try {
                through.write(b);
            } catch (java.io.IOException ignored) {
                // the original stream is the test runner's; what is kept is what the test reads
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (kept) {
                kept.write(b, off, len);
            }
            try {
                through.write(b, off, len);
            } catch (java.io.IOException ignored) {
                // as above
            }
        }

        @Override
        public void flush() throws java.io.IOException {
            through.flush();
        }
    }
}
