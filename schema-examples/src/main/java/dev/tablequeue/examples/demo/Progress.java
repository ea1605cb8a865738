package dev.tablequeue.examples.demo;

import java.io.Console;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Shows a run's progress: on a terminal, one line redrawn in place with {@code \r} at every update; elsewhere
 * (a pipe, a file, a CI log) a plain line at most once a second, so a log is not flooded with redraws.
 */
final class Progress {
    private static final int BAR_WIDTH = 30;
    private static final long PLAIN_EVERY_NANOS = Duration.ofSeconds(1).toNanos();

    private final PrintStream out;
    private final boolean terminal;
    private final int total;
    private final LongSupplier nanoTime;
    private int drawnLength;
    private long lastPlainLine = Long.MIN_VALUE;

    Progress(PrintStream out, boolean terminal, int total) {
        this(out, terminal, total, System::nanoTime);
    }

    /** With {@code nanoTime} in place of {@link System#nanoTime()}, for the spacing of plain lines. */
    Progress(PrintStream out, boolean terminal, int total, LongSupplier nanoTime) {
        this.out = out;
        this.terminal = terminal;
        this.total = total;
        this.nanoTime = nanoTime;
    }

    /**
     * Whether standard output is an interactive terminal. Java 21 gives a console only to a process whose
     * input and output are both terminals; from Java 22 a console may also stand for redirected streams, and
     * {@code Console.isTerminal()} (looked up by name, since this compiles for 21) tells them apart.
     */
    static boolean stdoutIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    /** Shows {@code counts} after {@code elapsed}: redrawn on a terminal, else a line once a second. */
    void update(Tally.Counts counts, Duration elapsed) {
        String line = line(counts, elapsed);
        if (terminal) {
            redraw(line);
            return;
        }
        long now = nanoTime.getAsLong();
        if (lastPlainLine == Long.MIN_VALUE || now - lastPlainLine >= PLAIN_EVERY_NANOS) {
            lastPlainLine = now;
            out.println(line);
        }
    }

    /** Shows the final counts and ends the line. */
    void finish(Tally.Counts counts, Duration elapsed) {
        String line = line(counts, elapsed);
        if (terminal) {
            redraw(line);
            out.println();
        } else {
            out.println(line);
        }
        out.flush();
    }

    private void redraw(String line) {
        // Pad with spaces over what a longer earlier line left on the screen.
        String padded = line.length() < drawnLength ? line + " ".repeat(drawnLength - line.length()) : line;
        drawnLength = line.length();
        out.print("\r" + padded);
        out.flush();
    }

    private String line(Tally.Counts counts, Duration elapsed) {
        return line(counts.done(), total, perSecond(counts.done(), elapsed), counts.retried(), counts.dead());
    }

    /** {@code [#####.....]  54%  5400/10000  2310 jobs/s  retried 771  dead 14}, the bar 30 wide. */
    static String line(long done, int total, long perSecond, long retried, long dead) {
        int filled = (int) Math.min(BAR_WIDTH, done * BAR_WIDTH / total);
        int width = Integer.toString(total).length();
        return String.format(Locale.ROOT, "[%s%s] %3d%% %" + width + "d/%d  %6d jobs/s  retried %d  dead %d",
                "#".repeat(filled), ".".repeat(BAR_WIDTH - filled), done * 100 / total, done, total, perSecond,
                retried, dead);
    }

    /** Jobs per second over {@code elapsed}, whole. */
    static long perSecond(long jobs, Duration elapsed) {
        long nanos = Math.max(1, elapsed.toNanos());
        return Math.round(jobs * 1e9 / nanos);
    }
}
