package dev.tablequeue.broker;

import dev.tablequeue.transport.HandlerMiddleware;
import java.sql.Connection;
import java.util.function.Consumer;

/**
 * Runs around each handler call of a transactional subscription, on the handler's thread, with the delivery's
 * transaction in hand: where a framework keeps the thread's transaction in a registry of its own (Spring's
 * {@code TransactionSynchronizationManager}), a scope binds the delivery's transaction there before the
 * handler runs and unbinds it after, so the framework's data access (a {@code @Transactional} service, a
 * {@code JdbcTemplate}) writes through the delivery's transaction instead of a connection of its own. The
 * Spring Boot starter registers one; a service rarely writes its own.
 *
 * <pre>{@code
 * QueueBroker.builder(dataSource)
 *     .handlerScope((delivery, tx, handler) -> {
 *         registry.bind(tx.connection());
 *         try {
 *             return handler.call();
 *         } finally {
 *             registry.unbind();
 *         }
 *     })
 * }</pre>
 *
 * <p>The scope wraps the broker's handler middlewares and the handler; what it throws is settled as the
 * handler's own throw. Subscriptions without {@code transactional()} run no scope. This SPI may still change
 * before 1.0.
 */
@FunctionalInterface
public interface HandlerScope {

    /**
     * Runs {@code handler} (the middlewares and the handler of {@code delivery}) inside the scope of
     * {@code transaction}, and answers its outcome.
     */
    Outcome around(Delivery delivery, HeldTransaction transaction, HandlerMiddleware.Next handler) throws Exception;

    /** The delivery's transaction, as a scope sees it while the handler runs. */
    interface HeldTransaction {

        /**
         * The connection the delivery's transaction runs on, as its handler sees it ({@code delivery.tx()}'s):
         * statements run in the transaction; its commit, rollback and auto-commit are refused, since an
         * acknowledgement commits it with the row's settlement and every other outcome rolls it back; its
         * {@code close()} does nothing. For the handler's time only.
         */
        Connection connection();

        /**
         * Runs {@code ended} once the delivery's transaction has ended, on a thread of the broker's: with
         * {@code true} once it committed with the acknowledgement, with {@code false} once it rolled back (every
         * other outcome, a failed settlement) or where its commit's fate is unknown (the connection was cut off
         * during it). Where the broker closes with the delivery unsettled, it may not run.
         */
        void whenEnded(Consumer<Boolean> ended);
    }
}
