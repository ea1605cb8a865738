package dev.tablequeue.outbox;

import java.sql.Connection;
import java.util.ServiceLoader;
import javax.sql.DataSource;

/**
 * A transaction manager whose transactions the outbox sees end, beside jOOQ's (through
 * {@link Outbox#transactionListener()}) and the frames of {@link Outbox#afterCommit()}: a framework that keeps
 * the transaction open on a thread (Spring's {@code @Transactional}, say). With a watch, a publish inside such a
 * transaction writes its record in it and sends after its commit, with no code of the service's.
 *
 * <p>Watches are found with {@link ServiceLoader} on the outbox's class loader (a file
 * {@code META-INF/services/dev.tablequeue.outbox.TransactionWatch} naming the class): a module that integrates a
 * framework ships one, and a service adds nothing. Every method runs on the publishing thread.
 */
public interface TransactionWatch {

    /**
     * The connection of the transaction open on this thread for {@code dataSource}, where this watch sees one;
     * null otherwise. A publish without the caller's context writes its record on it. The caller does not close it.
     */
    Connection connection(DataSource dataSource);

    /** Whether {@code connection} runs the transaction open on this thread that this watch sees end. */
    boolean watches(Connection connection);

    /**
     * Runs {@code send} once after the commit of the transaction open on this thread, and not at all after its
     * rollback. Called only just after {@link #watches} or {@link #connection} answered for it.
     */
    void afterCommit(Runnable send);
}
