package dev.tablequeue.dialect;

/**
 * The statement a FIFO claim runs first, in the claim's transaction, so that one row of a group is in work
 * at a time.
 *
 * @param statement the guard
 * @param answers true if the guard returns one boolean row that must be true for the claim to go on;
 *     false if it only takes locks
 */
public record FifoGuard(Statement statement, boolean answers) {}
