package dev.tablequeue.dialect;

import dev.tablequeue.TableQueueException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/** Picks the built-in dialect of the database a connection reaches. */
public final class QueueDialects {
    private QueueDialects() {}

    /**
     * The dialect for {@code connection}'s database, reading the server's version where the dialect
     * depends on it.
     *
     * @throws dev.tablequeue.ServerTooOldException for a MySQL or MariaDB server under the floor
     * @throws TableQueueException for a database without a built-in dialect
     */
    public static QueueDialect detect(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String product = meta.getDatabaseProductName();
        String lower = product.toLowerCase(Locale.ROOT);
        if (lower.contains("postgres")) {
            return new PostgresDialect();
        }
        if (lower.contains("mysql") || lower.contains("mariadb")) {
            return MySqlDialect.forServer(product, meta.getDatabaseProductVersion());
        }
        if (lower.contains("sqlite")) {
            return new SqliteDialect();
        }
        throw new TableQueueException("no built-in dialect for " + product + " "
                + meta.getDatabaseProductVersion() + ": pass a QueueDialect of your own to the broker's builder");
    }
}
