package dev.tablequeue.binding;

/**
 * How the transactions tablequeue opens for a delivery's work begin: an {@link Isolation} level on a
 * server database, or a {@link SqliteMode} on SQLite.
 */
public sealed interface Opening permits Isolation, SqliteMode {}
