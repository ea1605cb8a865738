package dev.tablequeue.spring;

import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.InboxQueue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers the subscriptions that stopped claiming because a handler threw an {@link Error}, for the health
 * indicator: such a broker serves its other queues, but not these, until it is built anew.
 */
public final class SubscriptionWatch implements BrokerListener {
    private final Map<String, String> stopped = new ConcurrentHashMap<>();

    @Override
    public void subscriptionStopped(InboxQueue<?> queue, Throwable cause) {
        stopped.put(queue.toString(), String.valueOf(cause));
    }

    /** The queues whose subscription stopped, each with the error that stopped it. */
    public Map<String, String> stopped() {
        return Map.copyOf(stopped);
    }
}
