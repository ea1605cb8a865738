package dev.tablequeue.dialect;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * The provider of the built-in dialects: PostgreSQL, MySQL and MariaDB (reading the server's version), and
 * SQLite, matched on the product name the driver reports. {@link QueueDialects#detect} asks it after every
 * other provider, so a dialect of a jar's own may serve one of these products in place of the built-in.
 */
public final class BuiltInDialects implements QueueDialectProvider {

    /** The provider {@link java.util.ServiceLoader} makes; {@link QueueDialects#detect} asks it last. */
    public BuiltInDialects() {}

    @Override
    public Optional<QueueDialect> dialectFor(DatabaseMetaData meta) throws SQLException {
        String product = meta.getDatabaseProductName();
        String lower = product.toLowerCase(Locale.ROOT);
        if (lower.contains("postgres")) {
            return Optional.of(new PostgresDialect());
        }
        if (lower.contains("mysql") || lower.contains("mariadb")) {
            return Optional.of(MySqlDialect.forServer(product, meta.getDatabaseProductVersion()));
        }
        if (lower.contains("sqlite")) {
            return Optional.of(new SqliteDialect());
        }
        return Optional.empty();
    }
}
