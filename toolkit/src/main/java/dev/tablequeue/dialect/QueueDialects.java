package dev.tablequeue.dialect;

import dev.tablequeue.TableQueueException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Picks the dialect of the database a connection reaches, among the {@link QueueDialectProvider}s that
 * {@link ServiceLoader} finds: the providers of other jars first, in the order the loader gives, then the
 * built-ins ({@link BuiltInDialects}).
 */
public final class QueueDialects {
    private QueueDialects() {}

    /**
     * The dialect for {@code connection}'s database, reading the server's version where the dialect
     * depends on it.
     *
     * @throws dev.tablequeue.ServerTooOldException for a MySQL or MariaDB server under the floor
     * @throws TableQueueException for a database no provider serves
     */
    public static QueueDialect detect(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        List<QueueDialectProvider> providers = providers();
        for (QueueDialectProvider provider : providers) {
            Optional<QueueDialect> dialect = provider.dialectFor(meta);
            if (dialect.isPresent()) {
                return dialect.get();
            }
        }
        throw new TableQueueException("no dialect for " + meta.getDatabaseProductName() + " "
                + meta.getDatabaseProductVersion() + " among " + providers.size() + " provider(s) "
                + providers.stream().map(p -> p.getClass().getName()).toList()
                + ": add a jar with a QueueDialectProvider for it, or pass a QueueDialect of your own to the"
                + " broker's builder");
    }

    /** Every provider found, the built-ins last; the built-ins even where the loader finds none. */
    static List<QueueDialectProvider> providers() {
        List<QueueDialectProvider> found = new ArrayList<>();
        QueueDialectProvider builtIn = null;
        for (QueueDialectProvider p : ServiceLoader.load(QueueDialectProvider.class, loader())) {
            if (p instanceof BuiltInDialects) {
                builtIn = p;
            } else {
                found.add(p);
            }
        }
        found.add(builtIn != null ? builtIn : new BuiltInDialects());
        return found;
    }

    /** The context class loader, where the service's jars are; the toolkit's own where a thread has none. */
    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : QueueDialects.class.getClassLoader();
    }
}
