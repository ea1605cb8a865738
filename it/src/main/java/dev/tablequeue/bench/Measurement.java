package dev.tablequeue.bench;

/**
 * One timed run: how many messages went through, in how long, and how many heap bytes the JVM allocated
 * meanwhile.
 *
 * @param messages the messages the run handled or wrote
 * @param nanos the run's wall-clock time
 * @param allocatedBytes heap bytes allocated by every thread of the JVM during the run, or -1 where the JVM
 *     does not count them
 */
public record Measurement(long messages, long nanos, long allocatedBytes) {
    public Measurement {
        if (messages < 1 || nanos < 1) {
            throw new IllegalArgumentException("a measurement needs messages and time, was " + messages
                    + " messages in " + nanos + " ns");
        }
    }

    /** Messages per second. */
    public double perSecond() {
        return messages * 1e9 / nanos;
    }

    public double seconds() {
        return nanos / 1e9;
    }

    /** Heap bytes allocated per message, or NaN where allocation was not counted. */
    public double bytesPerMessage() {
        return allocatedBytes < 0 ? Double.NaN : (double) allocatedBytes / messages;
    }
}
