package dev.tablequeue.spring;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.HandlerScope;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.transport.HandlerMiddleware;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;

/**
 * Binds a transactional delivery's transaction to Spring's transaction synchronization while its handler
 * runs: the delivery's connection is the application DataSource's transaction connection, so a
 * {@code @Transactional} service the handler calls joins it (propagation {@code REQUIRED}; {@code REQUIRES_NEW}
 * suspends it and runs on a connection of its own), and Boot's {@code JdbcTemplate} and {@code DSLContext}
 * write through it. What they write commits with the acknowledgement, and rolls back with every other
 * outcome.
 *
 * <p>A joined method that fails marks the delivery's transaction rollback-only, as Spring does its own: a
 * handler that catches the failure and acknowledges anyway has its delivery settled as a failed one (by the
 * mount's handler failure policy), its writes rolled back. Transaction synchronizations registered while the
 * handler runs (the outbox's sends after the commit, the broker's wake-ups) run their {@code beforeCommit}
 * and {@code beforeCompletion} when the handler acknowledges, and their {@code afterCommit} and
 * {@code afterCompletion} once the delivery's transaction has ended, on a thread of the broker's.
 */
final class SpringHandlerScope implements HandlerScope {
    private final DataSource dataSource;

    /** The scope of transactions on {@code dataSource}, the DataSource Spring's transaction manager runs on. */
    SpringHandlerScope(DataSource dataSource) {
        // DataSourceTransactionManager keys its connection by the proxy's target, so the binding does too
        this.dataSource = dataSource instanceof TransactionAwareDataSourceProxy proxy
                ? proxy.getTargetDataSource() : dataSource;
    }

    @Override
    public Outcome around(Delivery delivery, HeldTransaction transaction, HandlerMiddleware.Next handler)
            throws Exception {
        if (TransactionSynchronizationManager.hasResource(dataSource)
                || TransactionSynchronizationManager.isSynchronizationActive()) {
            // the handler's thread is in a Spring transaction already (a handler run by hand): leave it be
            return handler.call();
        }
        ConnectionHolder holder = new ConnectionHolder(transaction.connection(), true);
        holder.setSynchronizedWithTransaction(true);
        TransactionSynchronizationManager.bindResource(dataSource, holder);
        TransactionSynchronizationManager.initSynchronization();
        TransactionSynchronizationManager.setActualTransactionActive(true);
        TransactionSynchronizationManager.setCurrentTransactionName(delivery.toString());
        List<TransactionSynchronization> registered = List.of();
        boolean ended = false;
        try {
            Outcome outcome = handler.call();
            if (holder.isRollbackOnly() && outcome instanceof Outcome.Ack) {
                throw new TableQueueException("a @Transactional method the handler of " + delivery + " called"
                        + " failed and marked the delivery's transaction rollback-only, but the handler acknowledged:"
                        + " its writes are rolled back and the delivery settles as a failed one");
            }
            if (outcome instanceof Outcome.Ack) {
                TransactionSynchronizationUtils.triggerBeforeCommit(false);
            }
            TransactionSynchronizationUtils.triggerBeforeCompletion();
            registered = TransactionSynchronizationManager.getSynchronizations();
            ended = true;
            return outcome;
        } finally {
            if (!ended) {
                registered = TransactionSynchronizationManager.getSynchronizations();
                TransactionSynchronizationUtils.triggerBeforeCompletion();
            }
            TransactionSynchronizationManager.clearSynchronization();
            TransactionSynchronizationManager.setActualTransactionActive(false);
            TransactionSynchronizationManager.setCurrentTransactionName(null);
            TransactionSynchronizationManager.unbindResource(dataSource);
            afterEnd(transaction, registered);
        }
    }

    /** Runs the synchronizations' after-completion callbacks once the delivery's transaction has ended. */
    private static void afterEnd(HeldTransaction transaction, List<TransactionSynchronization> registered) {
        if (registered.isEmpty()) {
            return;
        }
        transaction.whenEnded(committed -> {
            try {
                if (committed) {
                    TransactionSynchronizationUtils.invokeAfterCommit(registered);
                }
            } finally {
                TransactionSynchronizationUtils.invokeAfterCompletion(registered, committed
                        ? TransactionSynchronization.STATUS_COMMITTED : TransactionSynchronization.STATUS_ROLLED_BACK);
            }
        });
    }
}
