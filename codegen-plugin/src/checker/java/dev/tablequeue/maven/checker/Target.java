package dev.tablequeue.maven.checker;

import dev.tablequeue.dialect.QueueDialect;
import java.sql.Connection;

/**
 * The migrated database bindings are checked on.
 *
 * @param label its name in the report
 * @param dialect the toolkit's dialect of it, as the broker detects it
 */
record Target(String label, QueueDialect dialect, SchemaDialect schemaDialect, SchemaReader schema,
        Connection connection) {}
