package dev.tablequeue.dialect;

/**
 * The advisory keys one subscription holds where the process keeps them rather than the database session
 * (SQLite, whose sessions hold no locks): see {@link KeyLocks#inProcess}. Thread-safe.
 *
 * <p>This SPI may still change before 1.0.
 */
public interface ProcessKeys {

    /** Takes {@code key} without waiting; true if this subscription now holds it. */
    boolean tryTake(String key);

    /** Puts back a key this subscription took; false where it held no such key. */
    boolean release(String key);

    /**
     * How many keys of the database are in work in the whole process now: a candidates statement cannot
     * leave them out, so a claim reads that many more candidates.
     */
    int held();

    /**
     * Whether {@code key} is in work anywhere in the process (this subscription's or another's): a claim
     * passes over a candidate whose key is, and reads further where every candidate's key is.
     */
    boolean isHeld(String key);
}
