package dev.tablequeue.broker;

/**
 * Defers a publish's wake-up to the commit of a transaction the broker cannot see: one that a framework's
 * transaction manager holds on the publishing thread (Spring's, say), around the caller's connection.
 *
 * <p>A row published on a connection inside a transaction is invisible to the claims until that transaction
 * commits. The broker first asks {@link CommitWakeups} (a jOOQ transaction), then this hook; where neither
 * takes the wake-up, it wakes the subscriptions at growing intervals until their poll finds the row.
 *
 * <pre>{@code
 * QueueBroker.builder(dataSource)
 *     .afterCommit(wake -> {
 *         if (!TransactionSynchronizationManager.isSynchronizationActive()) {
 *             return false;
 *         }
 *         TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
 *             public void afterCommit() { wake.run(); }
 *         });
 *         return true;
 *     })
 * }</pre>
 */
@FunctionalInterface
public interface AfterCommit {

    /** The hook of a broker that sees no transaction but jOOQ's: it takes no wake-up. */
    AfterCommit NONE = wake -> false;

    /**
     * Arranges for {@code wake} to run once after the commit of the transaction open on this thread, and not
     * at all after its rollback; returns false, and runs nothing, where no such transaction is open here.
     */
    boolean defer(Runnable wake);
}
