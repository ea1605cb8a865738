package dev.tablequeue.bench;

import java.lang.management.ManagementFactory;

/**
 * Times a run and counts the heap bytes the whole JVM allocated during it.
 *
 * <p>Allocation is the JVM's total ({@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes}),
 * not a sum over chosen threads: tablequeue's workers and handlers are virtual threads, whose allocation
 * the per-thread counter does not report, while the total counts it on their carrier threads. The total
 * also holds what the driver, the pool and the harness allocate meanwhile, the same for every contender.
 */
final class Stopwatch {
    private static final com.sun.management.ThreadMXBean THREADS = threads();

    private final long startNanos;
    private final long startBytes;

    private Stopwatch() {
        this.startBytes = allocated();
        this.startNanos = System.nanoTime();
    }

    static Stopwatch start() {
        return new Stopwatch();
    }

    /** The measurement of {@code messages} from the start until now. */
    Measurement stop(long messages) {
        long nanos = System.nanoTime() - startNanos;
        long end = allocated();
        // The JVM keeps its total monotonic with a high-water mark, which can hide a run's allocation behind
        // an earlier reading (seen as a delta of zero for thousands of messages): such a run counts as
        // not counted rather than as free.
        long bytes = startBytes < 0 || end <= startBytes ? -1 : end - startBytes;
        return new Measurement(messages, Math.max(1, nanos), bytes);
    }

    /** The JVM's allocated heap bytes so far, or -1 where not counted. */
    static long allocated() {
        if (THREADS == null) {
            return -1;
        }
        try {
            return THREADS.getTotalThreadAllocatedBytes();
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }

    private static com.sun.management.ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported()) {
            t.setThreadAllocatedMemoryEnabled(true);
            return t;
        }
        return null;
    }
}
