package dev.tablequeue.dialect.extensions;

import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SqliteDialect;

/**
 * The SQLite dialect for a database whose JDBC driver reports a product name of its own but runs SQLite's
 * SQL and file format (a build or fork of SQLite, or a driver that wraps sqlite-jdbc): the built-in {@link
 * SqliteDialect} under the name {@code sqlite-compatible <product>}, so that messages name the product the
 * driver reports. Nothing is forwarded or overridden: every statement and operation is SQLite's.
 */
public final class SqliteCompatibleDialect {
    private SqliteCompatibleDialect() {}

    /** The dialect of {@code product}, the product name its driver reports. */
    public static QueueDialect of(String product) {
        return new SqliteDialect("sqlite-compatible " + product);
    }
}
