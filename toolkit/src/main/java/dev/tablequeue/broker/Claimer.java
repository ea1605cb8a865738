package dev.tablequeue.broker;

/**
 * How one form takes rows: a row lock claim's transaction held open while its handlers run
 * ({@link RowLockClaimer}), a lease stamped and committed at once and kept by a keeper
 * ({@link LeaseClaimer}), or a key locked on a connection of each row's own ({@link AdvisoryClaimer}). The
 * subscription's claim thread calls it, one claim at a time.
 */
interface Claimer {

    /** Claims rows for up to {@code free} workers, handing each to {@code dispatch}. */
    void claim(int free, Dispatch dispatch) throws Exception;

    /** Starts what the form runs beside its claims (a lease's keeper). */
    default void start(String name) {}

    /** Stops what {@link #start} started. */
    default void stop() {}

    /** Waits up to {@code until} for what {@link #start} started to end. */
    default void awaitStopped(long until) {}
}
