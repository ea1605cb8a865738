package dev.tablequeue.broker;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link BrokerListener#all}: every event to each listener in turn; one that throws is logged, not passed on. */
final class FanOutListener implements BrokerListener {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerListener.class);

    private final List<BrokerListener> listeners;

    FanOutListener(List<BrokerListener> listeners) {
        this.listeners = listeners;
    }

    private void tell(String event, Consumer<BrokerListener> call) {
        for (BrokerListener l : listeners) {
            try {
                call.accept(l);
            } catch (RuntimeException e) {
                LOG.warn("the broker listener {} failed on {}; the other listeners were still told", l, event, e);
            }
        }
    }

    @Override
    public void settled(Delivery delivery, Outcome outcome) {
        tell("settled", l -> l.settled(delivery, outcome));
    }

    @Override
    public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
        tell("settlementFailed", l -> l.settlementFailed(delivery, outcome, failure));
    }

    @Override
    public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
        tell("settlementUnknown", l -> l.settlementUnknown(delivery, outcome, failure));
    }

    @Override
    public void decodeFailed(Delivery delivery, Throwable failure) {
        tell("decodeFailed", l -> l.decodeFailed(delivery, failure));
    }

    @Override
    public void deadLettered(Delivery delivery, String destination) {
        tell("deadLettered", l -> l.deadLettered(delivery, destination));
    }

    @Override
    public void claimFailed(InboxQueue<?> queue, Throwable failure) {
        tell("claimFailed", l -> l.claimFailed(queue, failure));
    }

    @Override
    public void claimed(InboxQueue<?> queue, int rows, Duration took) {
        tell("claimed", l -> l.claimed(queue, rows, took));
    }

    @Override
    public void handled(Delivery delivery, Outcome outcome, Duration took) {
        tell("handled", l -> l.handled(delivery, outcome, took));
    }

    @Override
    public void leaseLost(Delivery delivery) {
        tell("leaseLost", l -> l.leaseLost(delivery));
    }

    @Override
    public void subscriptionStopped(InboxQueue<?> queue, Throwable cause) {
        tell("subscriptionStopped", l -> l.subscriptionStopped(queue, cause));
    }
}
