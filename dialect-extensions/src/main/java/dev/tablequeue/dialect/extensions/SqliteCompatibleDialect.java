package dev.tablequeue.dialect.extensions;

import dev.tablequeue.dialect.ForwardingQueueDialect;
import dev.tablequeue.dialect.SqliteDialect;

/**
 * The SQLite dialect for a database whose JDBC driver reports a product name of its own but runs SQLite's
 * SQL and file format (a build or fork of SQLite, or a driver that wraps sqlite-jdbc): every statement is
 * the built-in {@link SqliteDialect}'s, and messages name the product the driver reports.
 */
public final class SqliteCompatibleDialect extends ForwardingQueueDialect {
    private final String product;

    /** @param product the product name the driver reports, for messages */
    public SqliteCompatibleDialect(String product) {
        super(new SqliteDialect());
        this.product = product;
    }

    @Override
    public String name() {
        return "sqlite-compatible " + product;
    }
}
