package dev.tablequeue.outbox;

import dev.tablequeue.SchemaException;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueDialects;
import dev.tablequeue.dialect.Statement;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;

/** What the outbox asks of its database when it is built: the dialect, and every statement prepared once. */
final class OutboxPreparation {
    private OutboxPreparation() {}

    static QueueDialect detect(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return QueueDialects.detect(c);
        } catch (SQLException e) {
            throw new OutboxException("the outbox cannot reach its database to detect the dialect: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Prepares every statement on the server through the dialect, so a table or column the database lacks
     * fails here (a plain JDBC prepare proves nothing where the driver prepares on the client, as MariaDB's
     * does).
     */
    static void prepare(DataSource dataSource, QueueDialect dialect,
            Map<OutboxBinding<?>, RecordStatements> built) {
        if (built.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            for (Map.Entry<OutboxBinding<?>, RecordStatements> e : built.entrySet()) {
                for (Statement statement : e.getValue().statements()) {
                    try {
                        dialect.prepare(c, statement);
                    } catch (SQLException failure) {
                        throw new SchemaException("outbox: the " + statement.purpose() + " statement of table \""
                                + e.getKey().tableName() + "\" does not prepare: " + failure.getMessage()
                                + " [SQL: " + statement.sql() + "]", failure);
                    }
                }
            }
        } catch (SQLException e) {
            throw new OutboxException("the outbox cannot reach its database: " + e.getMessage(), e);
        }
    }
}
