package dev.tablequeue.dialect;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Supplies the dialect of the databases it knows, for {@link QueueDialects#detect}: found through
 * {@link java.util.ServiceLoader}, so a jar that lists one in
 * {@code META-INF/services/dev.tablequeue.dialect.QueueDialectProvider} (or {@code provides} it in its
 * module) adds a dialect without a change to the toolkit.
 *
 * <p>This SPI may still change before 1.0.
 */
public interface QueueDialectProvider {

    /**
     * The dialect for the database {@code meta} describes, reading its product name and version; empty
     * where this provider does not serve it.
     *
     * @throws dev.tablequeue.ServerTooOldException where it serves the product but not this version
     */
    Optional<QueueDialect> dialectFor(DatabaseMetaData meta) throws SQLException;
}
