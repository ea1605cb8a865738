package dev.tablequeue.spring;

import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's one listener, passing each event on to every {@link BrokerListener} bean of the context in
 * their order; a listener that throws is logged, and the others still hear the event.
 */
final class BrokerListeners implements BrokerListener {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerListeners.class);

    private final List<BrokerListener> listeners;

    BrokerListeners(List<BrokerListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    private void each(Consumer<BrokerListener> event) {
        for (BrokerListener l : listeners) {
            try {
                event.accept(l);
            } catch (RuntimeException e) {
                LOG.warn("the broker listener {} failed: {}", l.getClass().getName(), e.toString(), e);
            }
        }
    }

    @Override
    public void settled(Delivery delivery, Outcome outcome) {
        each(l -> l.settled(delivery, outcome));
    }

    @Override
    public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
        each(l -> l.settlementFailed(delivery, outcome, failure));
    }

    @Override
    public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
        each(l -> l.settlementUnknown(delivery, outcome, failure));
    }

    @Override
    public void decodeFailed(Delivery delivery, Throwable failure) {
        each(l -> l.decodeFailed(delivery, failure));
    }

    @Override
    public void deadLettered(Delivery delivery, String destination) {
        each(l -> l.deadLettered(delivery, destination));
    }

    @Override
    public void claimFailed(InboxQueue<?> queue, Throwable failure) {
        each(l -> l.claimFailed(queue, failure));
    }

    @Override
    public void claimed(InboxQueue<?> queue, int rows, Duration took) {
        each(l -> l.claimed(queue, rows, took));
    }

    @Override
    public void handled(Delivery delivery, Outcome outcome, Duration took) {
        each(l -> l.handled(delivery, outcome, took));
    }

    @Override
    public void leaseLost(Delivery delivery) {
        each(l -> l.leaseLost(delivery));
    }

    @Override
    public void subscriptionStopped(InboxQueue<?> queue, Throwable cause) {
        each(l -> l.subscriptionStopped(queue, cause));
    }
}
