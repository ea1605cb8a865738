package dev.tablequeue.binding;

/** When a SQLite transaction takes the database's write lock. */
public enum SqliteMode implements Opening {
    /** At its first write ({@code BEGIN DEFERRED}). */
    DEFERRED,
    /** At its start ({@code BEGIN IMMEDIATE}). */
    IMMEDIATE,
    /** At its start, keeping readers out too ({@code BEGIN EXCLUSIVE}). */
    EXCLUSIVE
}
