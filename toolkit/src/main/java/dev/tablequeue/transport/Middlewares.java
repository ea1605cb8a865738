package dev.tablequeue.transport;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;
import java.util.List;

/**
 * The middlewares of one transport, in order, and the chains they make around a send and a handler call. A
 * transport asks {@link #publishes()} and {@link #handles()} first, so that without middlewares its hot path
 * allocates nothing for them.
 *
 * @param publish the publish middlewares, outermost first
 * @param handler the handler middlewares, outermost first
 */
public record Middlewares(List<PublishMiddleware> publish, List<HandlerMiddleware> handler) {
    private static final Middlewares NONE = new Middlewares(List.of(), List.of());

    public Middlewares {
        publish = List.copyOf(publish);
        handler = List.copyOf(handler);
    }

    /** No middleware at all. */
    public static Middlewares none() {
        return NONE;
    }

    /** Whether a publish passes through any middleware. */
    public boolean publishes() {
        return !publish.isEmpty();
    }

    /** Whether a handler call passes through any middleware. */
    public boolean handles() {
        return !handler.isEmpty();
    }

    /** The handler middlewares whose statements join a delivery's settlement ({@link SettlementJoin}), in order. */
    public List<SettlementJoin> joins() {
        return handler.stream().filter(SettlementJoin.class::isInstance).map(SettlementJoin.class::cast).toList();
    }

    /** Sends {@code message} through every publish middleware, then through {@code send}. */
    public void publish(OutgoingMessage message, PublishMiddleware.Send send) throws Exception {
        publishFrom(0, message, send);
    }

    private void publishFrom(int at, OutgoingMessage message, PublishMiddleware.Send send) throws Exception {
        if (at == publish.size()) {
            send.send(message);
            return;
        }
        publish.get(at).publish(message, m -> publishFrom(at + 1, m, send));
    }

    /** Runs {@code call} (the handler) inside every handler middleware. */
    public Outcome handle(String name, Delivery delivery, HandlerMiddleware.Next call) throws Exception {
        return handleFrom(0, name, delivery, call);
    }

    private Outcome handleFrom(int at, String name, Delivery delivery, HandlerMiddleware.Next call)
            throws Exception {
        if (at == handler.size()) {
            return call.call();
        }
        return handler.get(at).handle(name, delivery, () -> handleFrom(at + 1, name, delivery, call));
    }
}
