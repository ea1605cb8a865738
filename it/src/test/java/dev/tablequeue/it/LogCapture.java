package dev.tablequeue.it;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Keeps what the log writes while it is open, and still lets it through. The tests log through
 * slf4j-simple, which looks {@link System#err} up at every line, so swapping the stream catches every
 * logger's output, on every thread.
 */
final class LogCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

    private LogCapture() {
        System.setErr(new PrintStream(new Tee(original, kept), true, StandardCharsets.UTF_8));
    }

    /** Starts keeping the log. */
    static LogCapture start() {
        return new LogCapture();
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
