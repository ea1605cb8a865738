package dev.tablequeue.outbox;

import dev.tablequeue.transport.OutgoingMessage;
import dev.tablequeue.transport.PublishMiddleware;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The suite's publish middleware inside the outbox's: it sees every message the outbox passes on to the
 * transport's send (what was sent, with which headers), and fails the sends a test chooses, before the send
 * (the message never leaves) or after it (it left, and the caller hears of a failure, as when a confirm is
 * lost).
 */
final class Faults implements PublishMiddleware {
    enum Fault {
        NONE,
        BEFORE_SEND,
        AFTER_SEND
    }

    /** A message as it reached the send. */
    record Sent(String name, java.util.Map<String, String> headers) {}

    final List<Sent> sent = new CopyOnWriteArrayList<>();
    volatile Function<OutgoingMessage, Fault> plan = m -> Fault.NONE;

    @Override
    public void publish(OutgoingMessage message, Send next) throws Exception {
        Fault fault = plan.apply(message);
        if (fault == Fault.BEFORE_SEND) {
            throw new java.io.IOException("injected: the send of " + message.name() + " failed before it left");
        }
        next.send(message);
        sent.add(new Sent(message.name(), java.util.Map.copyOf(message.headers())));
        if (fault == Fault.AFTER_SEND) {
            throw new java.io.IOException("injected: the send of " + message.name() + " left, then failed");
        }
    }
}
