package dev.tablequeue.broker;

/**
 * What {@link QueueBroker#close()} did. Once it returns, no subscription of the broker holds a lock, an open
 * transaction or a connection of the pool: a handler still running past the drain timeout holds nothing, and
 * its outcome, when it comes, fails with {@link dev.tablequeue.BrokerClosedException} (except in the lease
 * form, whose deliveries keep their lease and settle on a connection of their own).
 *
 * @param locksReleased locks released with their connection back in the pool: an advisory key, or a row's
 *     lock, one per row of a row lock claim that close() rolled back
 * @param connectionsClosed connections that held a lock and ended their session instead, because the release
 *     (or the rollback) was not confirmed; the server drops the locks with the session
 * @param deliveriesAbandoned deliveries still in work when the drain timed out; their rows return by their
 *     form's rule (at once for a row lock or an advisory key, when the lease runs out for a lease)
 */
public record ShutdownReport(int locksReleased, int connectionsClosed, int deliveriesAbandoned) {}
