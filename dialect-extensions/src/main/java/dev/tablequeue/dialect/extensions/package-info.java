/**
 * Dialects beyond the three built-ins (PostgreSQL, MySQL and MariaDB, SQLite), written only against the toolkit's
 * public SPI, {@link dev.tablequeue.dialect.QueueDialect}: a service passes one to
 * {@code QueueBroker.builder(..).dialect(..)}. None is published yet; this package is where they go.
 */
package dev.tablequeue.dialect.extensions;
