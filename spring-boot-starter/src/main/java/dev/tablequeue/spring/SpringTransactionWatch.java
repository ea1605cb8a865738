package dev.tablequeue.spring;

import dev.tablequeue.outbox.TransactionWatch;
import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.ConnectionProxy;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Lets the outbox see Spring's transactions end: a publish inside a {@code @Transactional} method, a
 * {@code TransactionTemplate} or a jOOQ {@code transactionResult(..)} on Boot's {@code DSLContext} (which runs
 * through Spring's transaction manager) writes its record in that transaction, and its send follows the
 * commit; a rollback sends nothing. The outbox finds this class through {@link java.util.ServiceLoader} (the
 * starter's {@code META-INF/services}), so a service writes no code for it.
 *
 * <p>It answers only for the connection Spring's transaction holds: a context on a connection of the
 * caller's own, in a transaction of its own, is still refused by the outbox, since its commit is not Spring's.
 */
public final class SpringTransactionWatch implements TransactionWatch {

    /** The watch; {@link java.util.ServiceLoader} makes it. */
    public SpringTransactionWatch() {}

    @Override
    public Connection connection(DataSource dataSource) {
        if (!inTransaction()) {
            return null;
        }
        return TransactionSynchronizationManager.getResource(dataSource) instanceof ConnectionHolder holder
                && holder.getConnectionHandle() != null ? holder.getConnection() : null;
    }

    @Override
    public boolean watches(Connection connection) {
        if (!inTransaction()) {
            return false;
        }
        // Boot's DSLContext lends a proxy of TransactionAwareDataSourceProxy's, whose target is the held connection
        Connection target = connection instanceof ConnectionProxy proxy ? proxy.getTargetConnection() : connection;
        for (Object resource : TransactionSynchronizationManager.getResourceMap().values()) {
            if (resource instanceof ConnectionHolder holder && holder.getConnectionHandle() != null
                    && (holder.getConnection() == connection || holder.getConnection() == target)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void afterCommit(Runnable send) {
        TransactionSynchronizationManager.registerSynchronization(new SendAtCommit(send));
    }

    private static boolean inTransaction() {
        return TransactionSynchronizationManager.isSynchronizationActive()
                && TransactionSynchronizationManager.isActualTransactionActive();
    }

    /** Runs a send after the commit of the outermost transaction it was registered in. */
    static final class SendAtCommit implements TransactionSynchronization {
        private final Runnable send;

        SendAtCommit(Runnable send) {
            this.send = send;
        }

        @Override
        public void afterCommit() {
            send.run();
        }
    }
}
