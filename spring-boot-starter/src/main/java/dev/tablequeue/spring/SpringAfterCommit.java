package dev.tablequeue.spring;

import dev.tablequeue.broker.AfterCommit;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Defers a publish's wake-up to the commit of the Spring transaction open on the publishing thread: a row
 * published inside it cannot be claimed before, and a rollback takes it away.
 */
final class SpringAfterCommit implements AfterCommit {

    @Override
    public boolean defer(Runnable wake) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()
                || !TransactionSynchronizationManager.isActualTransactionActive()) {
            return false;
        }
        TransactionSynchronizationManager.registerSynchronization(new WakeAtCommit(wake));
        return true;
    }

    /** Runs a wake-up after the outermost commit of the transaction it was registered in. */
    static final class WakeAtCommit implements TransactionSynchronization {
        private final Runnable wake;

        WakeAtCommit(Runnable wake) {
            this.wake = wake;
        }

        @Override
        public void afterCommit() {
            wake.run();
        }
    }
}
