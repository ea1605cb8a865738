package dev.tablequeue.broker;

/**
 * What {@link QueueBroker#close()} did.
 *
 * @param locksReleased advisory locks released with their connection back in the pool
 * @param connectionsClosed connections that held a lock and were closed instead (the release was not confirmed)
 * @param deliveriesAbandoned deliveries still in work when the drain timed out; their rows return by their form's rule
 */
public record ShutdownReport(int locksReleased, int connectionsClosed, int deliveriesAbandoned) {}
