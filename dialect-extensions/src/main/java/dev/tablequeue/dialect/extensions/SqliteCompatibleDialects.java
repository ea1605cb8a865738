package dev.tablequeue.dialect.extensions;

import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueDialectProvider;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Serves the products named in the system property {@value #PRODUCTS} (comma-separated, compared without
 * regard to case with the product name the driver reports) with {@link SqliteCompatibleDialect}. Found by
 * {@link dev.tablequeue.dialect.QueueDialects#detect} through this jar's
 * {@code META-INF/services/dev.tablequeue.dialect.QueueDialectProvider}: nothing in the toolkit names it.
 */
public final class SqliteCompatibleDialects implements QueueDialectProvider {
    /** The system property that names the products served as SQLite. */
    public static final String PRODUCTS = "tablequeue.sqlite-compatible.products";

    @Override
    public Optional<QueueDialect> dialectFor(DatabaseMetaData meta) throws SQLException {
        String product = meta.getDatabaseProductName();
        String named = System.getProperty(PRODUCTS, "");
        boolean served = product != null && Arrays.stream(named.split(","))
                .map(String::trim)
                .anyMatch(p -> !p.isEmpty() && p.equalsIgnoreCase(product));
        return served ? Optional.of(SqliteCompatibleDialect.of(product)) : Optional.empty();
    }
}
